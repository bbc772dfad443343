package dev.muster.statussync.core.mirror;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;

/**
 * What the job events told status sync that a member's objects cannot: which jobs were deleted, which were stopped by
 * placement (preempted, withdrawn, evicted) and when, which copies status sync itself failed over, and where each job
 * was last bound. It explains a
 * copy gone from its member, and tells a copy the job has left from the job's own, whichever of the two status sync
 * reads first (a backlog, a restart). A job's entries go with its deletion.
 */
final class JobsRead {

    /** Deleted jobs by uid, each as its deletion named it: a deletion naming another job than its uid's purges nothing. */
    private final Map<String, JobRef> deleted = new HashMap<>();
    /** The last stop by placement of each job, and the last preemption, by uid. */
    private final Map<String, Instant> stopped = new HashMap<>();
    private final Map<String, Instant> preemptions = new HashMap<>();
    /** The ids of the failovers read of each job, by uid. */
    private final Map<String, Set<String>> failovers = new HashMap<>();
    /** The member each job's last binding read put it on, by uid. */
    private final Map<String, String> boundTo = new HashMap<>();

    void deleted(JobRef job) {
        deleted.put(job.uid(), job);
        stopped.remove(job.uid());
        preemptions.remove(job.uid());
        failovers.remove(job.uid());
        boundTo.remove(job.uid());
    }

    void bound(String uid, String cluster) {
        boundTo.put(uid, cluster);
    }

    /** The member the job's last binding read put it on; empty when none was read (or not since this instance started). */
    Optional<String> boundTo(String uid) {
        return Optional.ofNullable(boundTo.get(uid));
    }

    void stopped(String uid, Instant at) {
        stopped.merge(uid, at, JobsRead::later);
    }

    void preempted(String uid, Instant at) {
        stopped(uid, at);
        preemptions.merge(uid, at, JobsRead::later);
    }

    void failedOver(JobEvent failover) {
        failovers.computeIfAbsent(failover.job().uid(), key -> new HashSet<>()).add(failover.id());
    }

    /** Whether a deletion of the job's uid was read, whatever job it named. */
    boolean deletionRead(String uid) {
        return deleted.containsKey(uid);
    }

    /** Whether the copy's job was deleted: a deletion of its uid that names it (a uid alone proves nothing about whose job it is). */
    boolean isDeleted(MemberCopy copy) {
        JobRef named = deleted.get(copy.job().uid());
        return named != null && named.subject().equals(copy.job().subject());
    }

    /** Whether a stop by placement read covers the copy (it was admitted before it). */
    boolean stopCovers(MemberCopy copy) {
        return Optional.ofNullable(stopped.get(copy.job().uid())).map(copy::stoppedBy).orElse(false);
    }

    /** Whether a preemption read covers the copy; one that does not say when it was admitted may be a later admission's. */
    boolean preemptionCovers(MemberCopy copy) {
        Instant preemptedAt = preemptions.get(copy.job().uid());
        return preemptedAt != null && copy.admittedAt().isPresent() && copy.stoppedBy(preemptedAt);
    }

    /** Whether a failover of this very copy was read. */
    boolean failedOver(MemberCopy copy) {
        Set<String> read = failovers.get(copy.job().uid());
        return read != null && read.contains(failoverId(copy));
    }

    /** The id of the failover of this copy, whichever instance decides it. */
    static String failoverId(MemberCopy copy) {
        return JobEvent.observedId(copy.job().uid(), EventType.FAILOVER_TRIGGERED, copy.copyUid() + "|failover");
    }

    private static Instant later(Instant one, Instant other) {
        return one.isAfter(other) ? one : other;
    }
}
