package dev.muster.queue.core.quota;

import java.time.Instant;

/**
 * An admitted job, charged to its leaf and every ancestor.
 *
 * @param giveBacks   how many times placement gave the job back so far, so each backoff doubles the last
 * @param preemptedBy the job it is being preempted for, or null: a preempted job stays charged until it has
 *                    stopped on its member, so that no quota node is above its max while its pods terminate
 * @param withdrawn   whether it was deleted: it stays charged until it has stopped on its member, then leaves
 */
record Admission(QuotaJob job, String leaf, Instant admittedAt, int giveBacks, String preemptedBy, boolean withdrawn) {

    boolean preempting() {
        return preemptedBy != null;
    }

    /** Being stopped on its member, for a reclaim or because it was deleted: charged, but no one's to take again. */
    boolean stopping() {
        return preempting() || withdrawn;
    }

    Admission preemptedFor(String reclaimer) {
        return new Admission(job, leaf, admittedAt, giveBacks, reclaimer, withdrawn);
    }

    Admission withdrawing() {
        return new Admission(job, leaf, admittedAt, giveBacks, preemptedBy, true);
    }
}
