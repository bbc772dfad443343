package dev.muster.model.inventory;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;

/**
 * What placement needs to know of one member node: what it offers pods and whether it takes new ones.
 *
 * @param allocatable   what pods may use in all ({@code pods} included)
 * @param ready         the node's Ready condition is True
 * @param unschedulable cordoned
 */
public record NodeSnapshot(String name, Map<String, String> labels, List<Taint> taints, ResourceList allocatable, boolean ready,
                           boolean unschedulable) {

    public NodeSnapshot {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
        allocatable = allocatable == null ? ResourceList.empty() : allocatable;
    }

    public static NodeSnapshot of(Node node) {
        boolean ready = false;
        if (node.getStatus() != null && node.getStatus().getConditions() != null) {
            for (NodeCondition condition : node.getStatus().getConditions()) {
                if ("Ready".equals(condition.getType())) {
                    ready = "True".equals(condition.getStatus());
                }
            }
        }
        return new NodeSnapshot(node.getMetadata().getName(), node.getMetadata().getLabels(),
                node.getSpec() == null ? null : node.getSpec().getTaints(),
                node.getStatus() == null ? ResourceList.empty() : ResourceList.fromQuantities(node.getStatus().getAllocatable()), ready,
                node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable()));
    }
}
