package dev.muster.queue.core.quota;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How the quota core orders and protects waiting jobs.
 *
 * @param starvationAge    a job that has waited this long holds capacity for itself: later jobs must fit beside it
 * @param giveBackBackoff  how long a job given back by placement waits before it may be admitted again; doubled on
 *                         each further give-back
 * @param strictFifoLeaves leaves whose queue is strict FIFO: nothing passes a head that does not fit
 * @param reasonRefresh    how long the limit a waiting job was told blocks it may lag behind the one that blocks it now:
 *                         within this time of a pass that told every waiting job, a pass stops once none of the jobs left
 *                         can be admitted (a new job is still told at once why it waits); zero tells every job in every
 *                         pass
 */
public record QuotaSettings(Duration starvationAge, Duration giveBackBackoff, Set<String> strictFifoLeaves, Duration reasonRefresh) {

    /** The default of {@link #reasonRefresh}. */
    public static final Duration DEFAULT_REASON_REFRESH = Duration.ofSeconds(30);

    public QuotaSettings {
        Objects.requireNonNull(starvationAge, "starvationAge");
        Objects.requireNonNull(giveBackBackoff, "giveBackBackoff");
        Objects.requireNonNull(reasonRefresh, "reasonRefresh");
        if (reasonRefresh.isNegative()) {
            throw new IllegalArgumentException("reasonRefresh must not be negative: " + reasonRefresh);
        }
        strictFifoLeaves = Set.copyOf(strictFifoLeaves);
    }

    /** Settings whose every pass tells each waiting job why it waits. */
    public QuotaSettings(Duration starvationAge, Duration giveBackBackoff, Set<String> strictFifoLeaves) {
        this(starvationAge, giveBackBackoff, strictFifoLeaves, Duration.ZERO);
    }

    /** Best-effort FIFO everywhere, starvation guard after 10 minutes, 30 s give-back backoff, reasons refreshed every 30 s. */
    public static QuotaSettings defaults() {
        return new QuotaSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), Set.of(), DEFAULT_REASON_REFRESH);
    }
}
