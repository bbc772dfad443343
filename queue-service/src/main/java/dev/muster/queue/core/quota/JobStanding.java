package dev.muster.queue.core.quota;

import java.time.Instant;
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
 */
public record JobStanding(QuotaJob job, String leaf, Instant admittedAt, Instant waitingSince, Instant notBefore,
                          int giveBacks, String reason, String message) {

    public JobStanding {
        Objects.requireNonNull(job, "job");
    }

    public boolean admitted() {
        return admittedAt != null;
    }
}
