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
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodePoolSpec(String name, int count, Map<String, String> allocatable, Map<String, String> labels,
                           List<Taint> taints, List<LoadSpec> load) {

    public NodePoolSpec {
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
        load = load == null ? List.of() : List.copyOf(load);
    }
}
