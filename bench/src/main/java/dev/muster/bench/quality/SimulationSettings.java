package dev.muster.bench.quality;

import java.time.Duration;

import dev.muster.model.job.TopologyRequest;

/** The timings of the fleet around the decisions in a {@link QualitySimulation}, and what its quota tree and gangs ask for. */
record SimulationSettings(Duration inventoryLag, Duration createDelay, Duration reserveDelay, Duration pendingTimeout,
                          Duration failoverExclusion, Duration refusedExclusion, Duration retryInterval, Duration sampleInterval, Duration drain,
                          boolean fairSharing, boolean fairPreemption, TopologyRequest topology) {

    /**
     * Inventory 5 s behind the members; a job created 2 s after its decision, a reservation tried 1 s after;
     * failover after the seed policy's 30 s toleration, its member avoided for 5 min (1 min after a refused
     * reservation); waiting gangs retried at most every 5 s (a new admission is tried at once); a sample
     * every 10 min; 2 days after the last arrival for what still waits.
     */
    static SimulationSettings defaults() {
        return new SimulationSettings(Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(30),
                Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofMinutes(10), Duration.ofDays(2), true, false, null);
    }

    /**
     * The same, with the quota core's fair sharing between tenants on (the default) or disabled (priority, then
     * submission), and with fair-sharing preemption or without (the default).
     */
    SimulationSettings withFairSharing(boolean on, boolean preempting) {
        return new SimulationSettings(inventoryLag, createDelay, reserveDelay, pendingTimeout, failoverExclusion, refusedExclusion, retryInterval,
                sampleInterval, drain, on, on && preempting, topology);
    }

    /** The same, every gang asking for this topology (null: none); the members' nodes are in racks either way. */
    SimulationSettings withTopology(TopologyRequest asked) {
        return new SimulationSettings(inventoryLag, createDelay, reserveDelay, pendingTimeout, failoverExclusion, refusedExclusion, retryInterval,
                sampleInterval, drain, fairSharing, fairPreemption, asked);
    }
}
