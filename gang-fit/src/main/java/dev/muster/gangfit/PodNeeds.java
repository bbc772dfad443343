package dev.muster.gangfit;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.muster.model.resource.PodRequests;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Toleration;

/**
 * What one pod needs from a node, as the Kubernetes scheduler reads it.
 *
 * @param request      the effective request, one {@code pods} slot included
 * @param nodeSelector labels the node must carry
 * @param nodeAffinity the required node affinity terms, or null
 */
public record PodNeeds(String name, ResourceList request, Map<String, String> nodeSelector, NodeSelector nodeAffinity,
                       List<Toleration> tolerations) {

    public PodNeeds {
        Objects.requireNonNull(name, "name");
        nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    /** The needs of a pod with this spec. */
    public static PodNeeds of(String name, PodSpec spec) {
        Affinity affinity = spec.getAffinity();
        NodeSelector required = affinity == null || affinity.getNodeAffinity() == null ? null
                : affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        return new PodNeeds(name, PodRequests.onNode(spec), spec.getNodeSelector(), required,
                spec.getTolerations());
    }
}
