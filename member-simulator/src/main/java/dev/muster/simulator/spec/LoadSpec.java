package dev.muster.simulator.spec;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Pods that already run on part of a pool before Muster arrives, leaving its free capacity fragmented as a
 * real cluster's is. Load entries of a pool take consecutive nodes: the first entry the first {@code nodes}
 * nodes, the next entry the nodes after those.
 *
 * @param nodes       how many nodes carry this load
 * @param podsPerNode how many load pods each of those nodes runs; 1 when absent
 * @param requests    what each load pod requests, e.g. {@code {nvidia.com/gpu: "5", cpu: "20"}}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadSpec(int nodes, Integer podsPerNode, Map<String, String> requests) {

    public LoadSpec {
        requests = requests == null ? Map.of() : Map.copyOf(requests);
    }

    /** How many load pods each node runs. */
    public int pods() {
        return podsPerNode == null ? 1 : podsPerNode;
    }
}
