package dev.muster.queue.core.quota;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/**
 * How the quota core orders and protects waiting jobs.
 *
 * @param starvationAge   a job that has waited this long holds capacity for itself: later jobs must fit beside it
 * @param giveBackBackoff how long a job given back by placement waits before it may be admitted again; doubled on
 *                        each further give-back
 * @param strictFifoLeaves leaves whose queue is strict FIFO: nothing passes a head that does not fit
 */
public record QuotaSettings(Duration starvationAge, Duration giveBackBackoff, Set<String> strictFifoLeaves) {

    public QuotaSettings {
        Objects.requireNonNull(starvationAge, "starvationAge");
        Objects.requireNonNull(giveBackBackoff, "giveBackBackoff");
        strictFifoLeaves = Set.copyOf(strictFifoLeaves);
    }

    /** Best-effort FIFO everywhere, starvation guard after 10 minutes, 30 s give-back backoff. */
    public static QuotaSettings defaults() {
        return new QuotaSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), Set.of());
    }
}
