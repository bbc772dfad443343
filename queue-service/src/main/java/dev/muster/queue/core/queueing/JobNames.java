package dev.muster.queue.core.queueing;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobRef;

/**
 * Which job holds each name: one name in a namespace is one job, on both submission paths, from its submission
 * until its deletion (a finished or rejected job keeps its name, as its object does on the fleet API). Also the
 * other way round: one job UID is one name.
 */
final class JobNames {

    private final Map<String, JobRef> byName = new HashMap<>();
    private final Map<String, JobRef> byUid = new HashMap<>();

    /** Why this job cannot have its name, if it cannot: another job holds it, or its UID is another name's. */
    Optional<String> conflict(JobRef job) {
        JobRef holder = byName.get(job.subject());
        if (holder != null && !holder.uid().equals(job.uid())) {
            return Optional.of("job " + job.subject() + " exists already (uid " + holder.uid() + "); one name in a namespace is one job:"
                    + " delete it first, or submit this one under another name");
        }
        JobRef sameUid = byUid.get(job.uid());
        if (sameUid != null && !sameUid.subject().equals(job.subject())) {
            return Optional.of("jobuid " + job.uid() + " is job " + sameUid.subject() + " already; a job keeps its uid and its name");
        }
        return Optional.empty();
    }

    /** Whether the job holds its name now. */
    boolean holds(JobRef job) {
        return job.equals(byUid.get(job.uid()));
    }

    /** The job that holds the name {@code namespace/name}, if one does. */
    Optional<JobRef> holderOfName(String subject) {
        return Optional.ofNullable(byName.get(subject));
    }

    /** The job that holds a name under this uid, if one does. */
    Optional<JobRef> holder(String uid) {
        return Optional.ofNullable(byUid.get(uid));
    }

    boolean knows(String uid) {
        return byUid.containsKey(uid);
    }

    void claim(JobRef job) {
        byName.put(job.subject(), job);
        byUid.put(job.uid(), job);
    }

    /** The job's name is free again; false when the job held none. */
    boolean release(String uid) {
        JobRef job = byUid.remove(uid);
        if (job == null) {
            return false;
        }
        byName.remove(job.subject(), job);
        return true;
    }
}
