package dev.muster.gangfit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

/** Turns a cluster's nodes, the pods bound to them and the reservations held on them into the {@link NodeState}s scheduling decides on. */
public final class NodeStates {

    private NodeStates() {
    }

    /** Each node with its free capacity: allocatable less the requests of every unfinished pod bound to it. */
    public static List<NodeState> of(List<Node> nodes, List<Pod> pods) {
        return of(nodes, pods, List.of());
    }

    /** As {@link #ofSnapshots}, from the API objects. */
    public static List<NodeState> of(List<Node> nodes, List<Pod> pods, List<Reservation> reservations) {
        return ofSnapshots(nodes.stream().map(NodeSnapshot::of).toList(), pods.stream().map(PodSnapshot::of).toList(),
                reservations.stream().map(ReservationSnapshot::of).toList());
    }

    /**
     * Each node with its free capacity: allocatable less the requests of every unfinished pod bound to it and
     * less what each reservation on it still holds (its request, minus what its owner pods already take, so a
     * reservation and the pods using it are never counted twice).
     */
    public static List<NodeState> ofSnapshots(List<NodeSnapshot> nodes, List<PodSnapshot> pods, List<ReservationSnapshot> reservations) {
        Map<String, ResourceList> requested = new HashMap<>();
        Map<String, PodSnapshot> running = new HashMap<>();
        for (PodSnapshot pod : pods) {
            if (pod.node() != null && !pod.finished()) {
                requested.merge(pod.node(), pod.request(), ResourceList::plus);
                running.put(pod.key(), pod);
            }
        }
        for (ReservationSnapshot reservation : reservations) {
            if (reservation.isHolding()) {
                requested.merge(reservation.node(), reservation.held(running), ResourceList::plus);
            }
        }
        List<NodeState> states = new ArrayList<>(nodes.size());
        for (NodeSnapshot node : nodes) {
            states.add(state(node, requested.getOrDefault(node.name(), ResourceList.empty())));
        }
        return states;
    }

    /** The node with this much of it in use. */
    public static NodeState state(NodeSnapshot node, ResourceList used) {
        return new NodeState(node.name(), node.labels(), node.taints(), node.allocatable(), node.allocatable().minus(used), node.ready(),
                node.unschedulable());
    }

    /** Whether the pod has run to completion, one way or the other. */
    public static boolean isFinished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
