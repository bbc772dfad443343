package dev.muster.queue.core.quota;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One job's whole standing in quota: what the service persists after each decision so that a restarted
 * service, restored from these alone, decides exactly as the one that stopped would have.
 *
 * @param leaf         the leaf it is charged to or waits in; null when no leaf takes its namespace
 * @param admittedAt   when it was admitted; null while it waits
 * @param waitingSince when it first did not fit; the starvation guard counts from here
 * @param notBefore    after a give-back, when it may be admitted again
 * @param reason       the last waiting reason reported, so an unchanged reason is not reported again
 * @param preemptedBy  for an admitted job being preempted, the UID of the job it is preempted for; else null
 * @param reclaiming   for a waiting job that reclaims capacity, the UIDs of the preempted jobs it waits for to stop
 * @param withdrawn    for an admitted job, whether it was deleted and is being stopped on its member
 */
public record JobStanding(QuotaJob job, String leaf, Instant admittedAt, Instant waitingSince, Instant notBefore,
                          int giveBacks, String reason, String message, String preemptedBy, List<String> reclaiming, boolean withdrawn) {

    public JobStanding {
        Objects.requireNonNull(job, "job");
        reclaiming = reclaiming == null ? List.of() : List.copyOf(reclaiming);
    }

    public boolean admitted() {
        return admittedAt != null;
    }

    /** The same standing of this job (one equal to it, e.g. sharing another instance of its demand). */
    JobStanding withJob(QuotaJob same) {
        return new JobStanding(same, leaf, admittedAt, waitingSince, notBefore, giveBacks, reason, message, preemptedBy, reclaiming, withdrawn);
    }
}
