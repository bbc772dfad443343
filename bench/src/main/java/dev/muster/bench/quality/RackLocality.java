package dev.muster.bench.quality;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.muster.gangfit.NodeState;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * How many of the gangs of two or more pods had every pod inside one rack (on one node or several): what a rack
 * preference buys, and what topology-unaware placement gives by chance. Nodes are in racks of {@link #RACK_SIZE}
 * consecutive nodes of their member.
 */
final class RackLocality {

    /** Nodes per rack in the simulated members, as in {@code PlacementDecisionBenchmark}'s fleets. */
    static final int RACK_SIZE = 16;

    private long multiPod;
    private long withinOneRack;

    /** The rack label of the member's node at this position. */
    static String rack(int position) {
        return "r" + position / RACK_SIZE;
    }

    /** A gang placed on {@code cluster} as {@code plan} says (pod to node). */
    synchronized void placed(Map<String, String> plan, ClusterInventory cluster) {
        if (plan.size() < 2) {
            return;
        }
        Set<String> nodes = new HashSet<>(plan.values());
        multiPod++;
        Set<String> racks = new HashSet<>();
        for (String name : nodes) {
            NodeState node = cluster.index().node(name);
            racks.add(node == null ? "?" + name : node.labels().getOrDefault(TopologyLevels.RACK, "?" + name));
        }
        withinOneRack += racks.size() == 1 ? 1 : 0;
    }

    synchronized long multiPod() {
        return multiPod;
    }

    synchronized long withinOneRack() {
        return withinOneRack;
    }
}
