package dev.muster.model.scheduling;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.Reservations;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;

/** Turns Kubernetes Nodes and the pods bound to them into the {@link NodeState}s scheduling decides on. */
public final class NodeStates {

    private NodeStates() {
    }

    /**
     * Each node with its free capacity: allocatable less the requests of every pod bound to it that has not
     * finished ({@code Succeeded} and {@code Failed} pods hold nothing).
     */
    public static List<NodeState> of(List<Node> nodes, List<Pod> pods) {
        return of(nodes, pods, List.of());
    }

    /**
     * Each node with its free capacity: allocatable less the requests of every unfinished pod bound to it and
     * less what each reservation on it still holds (its request, minus what its owner pods already take, so a
     * reservation and the pods using it are never counted twice).
     */
    public static List<NodeState> of(List<Node> nodes, List<Pod> pods, List<Reservation> reservations) {
        Map<String, ResourceList> requested = new HashMap<>();
        Map<String, List<Pod>> podsByNode = new HashMap<>();
        for (Pod pod : pods) {
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (node != null && !isFinished(pod)) {
                requested.merge(node, PodNeeds.of(pod.getMetadata().getName(), pod.getSpec()).request(), ResourceList::plus);
                podsByNode.computeIfAbsent(node, key -> new ArrayList<>()).add(pod);
            }
        }
        for (Reservation reservation : reservations) {
            if (Reservations.isHolding(reservation)) {
                String node = reservation.getStatus().nodeName();
                requested.merge(node, Reservations.held(reservation, podsByNode.getOrDefault(node, List.of())), ResourceList::plus);
            }
        }
        List<NodeState> states = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            ResourceList allocatable = node.getStatus() == null ? ResourceList.empty()
                    : ResourceList.fromQuantities(node.getStatus().getAllocatable());
            String name = node.getMetadata().getName();
            states.add(new NodeState(name, node.getMetadata().getLabels(), node.getSpec() == null ? null : node.getSpec().getTaints(),
                    allocatable, allocatable.minus(requested.getOrDefault(name, ResourceList.empty())), isReady(node),
                    node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())));
        }
        return states;
    }

    /** Whether the pod has run to completion, one way or the other. */
    public static boolean isFinished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static boolean isReady(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        for (NodeCondition condition : node.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType())) {
                return "True".equals(condition.getStatus());
            }
        }
        return false;
    }
}
