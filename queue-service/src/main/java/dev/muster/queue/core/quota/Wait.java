package dev.muster.queue.core.quota;

import java.time.Instant;
import java.util.List;

/**
 * A waiting job and what was last said about it.
 *
 * @param waitingSince when it first did not fit; the starvation guard counts from here
 * @param notBefore    when a job given back may be admitted again
 * @param giveBacks    how many times placement gave it back
 * @param reclaiming   the preempted jobs it waits for to stop, by UID, in the order they were chosen; empty when none
 */
record Wait(QuotaJob job, String leaf, Instant waitingSince, Instant notBefore, int giveBacks,
            String reason, String message, List<String> reclaiming) {

    Wait {
        reclaiming = List.copyOf(reclaiming);
    }

    /** A job that waits afresh: in its leaf's queue, at the place its priority and submission give it. */
    static Wait fresh(QuotaJob job, String leaf, Instant notBefore, int giveBacks) {
        return new Wait(job, leaf, null, notBefore, giveBacks, null, null, List.of());
    }

    Wait reported(String newReason, String newMessage) {
        return new Wait(job, leaf, waitingSince, notBefore, giveBacks, newReason, newMessage, reclaiming);
    }

    Wait since(Instant time) {
        return new Wait(job, leaf, time, notBefore, giveBacks, reason, message, reclaiming);
    }

    Wait inLeaf(String newLeaf) {
        return new Wait(job, newLeaf, waitingSince, notBefore, giveBacks, reason, message, reclaiming);
    }

    Wait reclaiming(List<String> victims) {
        return new Wait(job, leaf, waitingSince, notBefore, giveBacks, reason, message, victims);
    }
}
