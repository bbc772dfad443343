package dev.muster.placement.core.binding;

import java.time.Duration;
import java.util.Map;

import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.fit.Scoring;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * How placement behaves.
 *
 * @param reservationTimeout how long a member has to confirm every reservation of a gang before placement
 *                           releases them and tries the next cluster
 * @param reservationTtl     the TTL written on each reservation, so that one leaked by a crash frees itself
 * @param retryBackoff       the first wait before a job that fits nowhere is tried again; each further try doubles it
 * @param maxRetryBackoff    the longest such wait
 * @param giveBackAfter      how long a job admitted under quota may wait unplaced before its quota goes back to its queue
 * @param failoverExclusion  how long a job that failed over avoids the cluster it left
 * @param evictionCheck      how often a member is asked whether a preempted job's copy, pods and reservations are gone
 * @param fitModes           per cluster, when not {@link FitMode#NODE}
 * @param topologyLevels     the members' topology levels, broadest first
 * @param scoring            how placement chooses among the nodes and clusters a gang fits
 */
public record PlacementSettings(Duration reservationTimeout, Duration reservationTtl, Duration retryBackoff, Duration maxRetryBackoff,
                                Duration giveBackAfter, Duration failoverExclusion, Duration evictionCheck, Map<String, FitMode> fitModes,
                                TopologyLevels topologyLevels, Scoring scoring) {

    public PlacementSettings {
        fitModes = Map.copyOf(fitModes);
        topologyLevels = topologyLevels == null ? TopologyLevels.DEFAULT : topologyLevels;
        scoring = scoring == null ? Scoring.BEST_FIT : scoring;
    }

    public static PlacementSettings defaults() {
        return new PlacementSettings(Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofMinutes(1),
                Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofSeconds(1), Map.of(), TopologyLevels.DEFAULT, Scoring.BEST_FIT);
    }

    public FitMode fitMode(String cluster) {
        return fitModes.getOrDefault(cluster, FitMode.NODE);
    }
}
