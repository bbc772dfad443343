package dev.muster.queue.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Configuration of the queue service ({@code muster.queue.*}). */
@ConfigMapping(prefix = "muster.queue")
public interface QueueConfig {

    /** A job waiting this long holds capacity for itself, so smaller jobs stop passing it. Default 10 minutes. */
    @WithDefault("10m")
    Duration starvationAge();

    /** How long a job given back by placement waits before it may be admitted again; doubles each time. Default 30 s. */
    @WithDefault("30s")
    Duration giveBackBackoff();

    /** Quota leaves whose queue is strict FIFO (nothing passes a head that does not fit). Default: none. */
    Optional<Set<String>> strictFifoLeaves();

    /** PriorityClass values by name, e.g. {@code muster.queue.priority-classes.high=1000}; unknown classes count 0. */
    Map<String, Integer> priorityClasses();
}
