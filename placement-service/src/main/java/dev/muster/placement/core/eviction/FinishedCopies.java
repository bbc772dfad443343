package dev.muster.placement.core.eviction;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobRef;

/**
 * The member copies of jobs that ran to their end, kept where they ran until the job is deleted, as a finished
 * Kubernetes Job is: then placement stops them like any deleted job's, asking the member until it shows nothing.
 * Placement's state log holds them, so a deletion read while the member is away, or just before a restart, still
 * removes the copy once the member answers.
 */
public final class FinishedCopies {

    /** A finished job's copy on its member. */
    public record FinishedCopy(JobRef job, String cluster) {
    }

    private final Map<String, FinishedCopy> copies = new LinkedHashMap<>();

    /** The job ran to its end on the cluster: its copy stays there until the job is deleted. */
    public void finished(JobRef job, String cluster) {
        copies.put(job.uid(), new FinishedCopy(job, cluster));
    }

    /** The job was deleted: its copy, if it finished on a member, to stop there now. */
    public Optional<FinishedCopy> deleted(String uid) {
        return Optional.ofNullable(copies.remove(uid));
    }

    public Optional<FinishedCopy> copy(String uid) {
        return Optional.ofNullable(copies.get(uid));
    }

    /** The member left the fleet: nothing of it is Muster's to remove any more. */
    public void memberLeft(String cluster) {
        copies.values().removeIf(copy -> copy.cluster().equals(cluster));
    }
}
