package dev.muster.gangfit;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Taint;

/**
 * A node as scheduling sees it.
 *
 * @param allocatable   what pods may use in all ({@code pods} included)
 * @param free          what is left after the pods bound to it and the reservations held on it
 * @param ready         the node's Ready condition
 * @param unschedulable cordoned ({@code spec.unschedulable})
 */
public record NodeState(String name, Map<String, String> labels, List<Taint> taints, ResourceList allocatable,
                        ResourceList free, boolean ready, boolean unschedulable) {

    public NodeState {
        Objects.requireNonNull(name, "name");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** The same node with less free capacity, once a pod is planned onto it. */
    public NodeState minus(ResourceList used) {
        return new NodeState(name, labels, taints, allocatable, free.minus(used), ready, unschedulable);
    }

    /** The same node with more free capacity, when a reservation hands what it holds to its owner pod. */
    public NodeState plus(ResourceList released) {
        return new NodeState(name, labels, taints, allocatable, free.plus(released), ready, unschedulable);
    }
}
