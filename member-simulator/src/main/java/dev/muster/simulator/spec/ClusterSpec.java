package dev.muster.simulator.spec;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One simulated member cluster.
 *
 * @param kubernetesVersion e.g. {@code 1.30.2}
 * @param schedulerVersion  the ACK scheduler's version, e.g. {@code 6.8.1}; reservation needs 6.8.0 or later
 * @param labels            the cluster's own labels, for {@code clusterAffinity.labelSelector}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ClusterSpec(String name, String kubernetesVersion, String schedulerVersion, Map<String, String> labels,
                          List<NodePoolSpec> nodePools) {

    public ClusterSpec {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }

    /** Whether the cluster honours reservations: Kubernetes 1.28 or later and scheduler 6.8.0 or later, as the vendor requires. */
    public boolean supportsReservation() {
        return Versions.atLeast(kubernetesVersion, "1.28") && Versions.atLeast(schedulerVersion, "6.8.0");
    }
}
