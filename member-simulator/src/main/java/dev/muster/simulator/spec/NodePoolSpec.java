package dev.muster.simulator.spec;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.kubernetes.api.model.Taint;

/**
 * A group of identical simulated nodes.
 *
 * @param count       how many nodes, named {@code <cluster>-<pool>-<index>}
 * @param allocatable what each node offers pods: {@code cpu}, {@code memory}, {@code nvidia.com/gpu}, {@code pods}
 * @param load        pods already running on some of the nodes
 * @param topology    where the nodes sit (racks, blocks of racks, a zone), as real clusters label them; none when absent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodePoolSpec(String name, int count, Map<String, String> allocatable, Map<String, String> labels,
                           List<Taint> taints, List<LoadSpec> load, TopologySpec topology) {

    /**
     * The pool's nodes in racks of {@code nodesPerRack} consecutive nodes (named {@code <pool>-r<k>}), the racks in
     * blocks of {@code racksPerBlock} ({@code <pool>-b<k>}; none when 0), all in {@code zone} when given. Labelled with
     * {@code cloud.provider.com/topology-rack}, {@code cloud.provider.com/topology-block} and
     * {@code topology.kubernetes.io/zone}, the defaults of placement's topology levels.
     */
    public record TopologySpec(int nodesPerRack, int racksPerBlock, String zone) {

        public static final String RACK = "cloud.provider.com/topology-rack";
        public static final String BLOCK = "cloud.provider.com/topology-block";
        public static final String ZONE = "topology.kubernetes.io/zone";

        /** The topology labels of the pool's node at {@code index}. */
        public Map<String, String> labels(String pool, int index) {
            Map<String, String> labels = new java.util.LinkedHashMap<>();
            if (nodesPerRack > 0) {
                int rack = index / nodesPerRack;
                labels.put(RACK, pool + "-r" + rack);
                if (racksPerBlock > 0) {
                    labels.put(BLOCK, pool + "-b" + rack / racksPerBlock);
                }
            }
            if (zone != null) {
                labels.put(ZONE, zone);
            }
            return labels;
        }
    }

    public NodePoolSpec {
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
        load = load == null ? List.of() : List.copyOf(load);
    }
}
