package dev.muster.queue.core.quota;

/** A change in a job's standing that the quota core decided; the service turns each into an event. */
public sealed interface QuotaDecision {

    QuotaJob job();

    /** The job is admitted and charged to its leaf and every ancestor. */
    record Admitted(QuotaJob job, String leaf) implements QuotaDecision {
    }

    /**
     * The job waits, or waits for a new reason.
     *
     * @param queue    its queue's name, or null when no leaf takes its namespace
     * @param position 1 for the head of its queue; 0 when it is in no queue
     * @param reason   one word: {@code NoQuotaForNamespace}, {@code QuotaExceeded}, {@code QuotaNeverFits},
     *                 {@code HeldForStarvingJob}, {@code BehindStrictHead}, {@code Backoff}
     * @param message  for a person: which node, which resource, how much
     */
    record Waiting(QuotaJob job, String queue, int position, String reason, String message) implements QuotaDecision {
    }

    /**
     * The job, admitted on borrowed capacity, is preempted to give a guaranteed job its share; it waits
     * again at its original position.
     */
    record Preempted(QuotaJob job, QuotaJob by, String message) implements QuotaDecision {
    }
}
