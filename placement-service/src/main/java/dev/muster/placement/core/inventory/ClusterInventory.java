package dev.muster.placement.core.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.scheduling.NodeIndex;
import dev.muster.model.scheduling.NodeState;
import dev.muster.model.scheduling.NodeStates;

/**
 * What placement knows of one member cluster, updated one observation at a time: its nodes, the pods bound
 * to them, the reservations held on them, and the capacity placement itself has promised to jobs whose
 * pods or reservations the member has not shown yet. Free capacity counts each of these once: a reservation's
 * owner pods are subtracted from what it holds, and a promise ends for each pod as soon as that pod, or the
 * reservation made for it, is observed.
 */
public final class ClusterInventory {

    private final String cluster;
    private MemberSnapshot member;
    private final Map<String, NodeSnapshot> nodes = new TreeMap<>();
    private final Map<String, PodSnapshot> pods = new HashMap<>();
    private final Map<String, ReservationSnapshot> reservations = new HashMap<>();
    private final Map<String, Promise> promises = new LinkedHashMap<>();
    private NodeIndex cachedIndex;

    public ClusterInventory(String cluster) {
        this.cluster = cluster;
    }

    /**
     * Capacity placement promised to a job on this cluster before the member shows it: for each pod of the
     * plan, its node and request, and the reservation made for it (if any).
     */
    public record Promise(String job, Map<String, PlannedPod> pods) {

        public Promise {
            pods = Map.copyOf(pods);
        }
    }

    /** One pod of a promise: where it goes, what it takes, and the reservation made for it (or null). */
    public record PlannedPod(String namespace, String name, String node, ResourceList request, String reservation) {

        String key() {
            return namespace + "/" + name;
        }
    }

    public String cluster() {
        return cluster;
    }

    public Optional<MemberSnapshot> member() {
        return Optional.ofNullable(member);
    }

    public void observe(MemberSnapshot snapshot) {
        member = snapshot;
    }

    public void observe(NodeSnapshot node) {
        nodes.put(node.name(), node);
        cachedIndex = null;
    }

    public void nodeGone(String name) {
        nodes.remove(name);
        cachedIndex = null;
    }

    public void observe(PodSnapshot pod) {
        pods.put(pod.key(), pod);
        cachedIndex = null;
    }

    public void podGone(String namespace, String name) {
        pods.remove(namespace + "/" + name);
        cachedIndex = null;
    }

    public void observe(ReservationSnapshot reservation) {
        reservations.put(reservation.name(), reservation);
        cachedIndex = null;
    }

    public void reservationGone(String name) {
        reservations.remove(name);
        cachedIndex = null;
    }

    /** The reservation as last reported, if it was. */
    public Optional<ReservationSnapshot> reservation(String name) {
        return Optional.ofNullable(reservations.get(name));
    }

    /** Holds the plan's capacity for the job until the member shows its pods or reservations. */
    public void promise(Promise promise) {
        promises.put(promise.job(), promise);
        cachedIndex = null;
    }

    /** Ends the job's promise: it was placed elsewhere, released, or is visible on the member in full. */
    public void release(String job) {
        if (promises.remove(job) != null) {
            cachedIndex = null;
        }
    }

    /** The jobs this cluster holds promises for. */
    public Set<String> promisedJobs() {
        return new HashSet<>(promises.keySet());
    }

    /** Every node with its free capacity now, in name order. */
    public List<NodeState> nodeStates() {
        return index().nodes();
    }

    /** The nodes with their free capacity now, indexed for packing; rebuilt only after the inventory changed. */
    public NodeIndex index() {
        if (cachedIndex == null) {
            cachedIndex = NodeIndex.of(compute());
        }
        return cachedIndex;
    }

    /** Whether the member answers and has at least one node that takes pods. */
    public boolean isReady() {
        if (member == null || !member.reachable()) {
            return false;
        }
        // A loop, not a stream: every placement decision asks this of every cluster.
        for (NodeSnapshot node : nodes.values()) {
            if (node.ready() && !node.unschedulable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the member now counts the planned pod itself: the pod is bound, or its reservation holds the
     * capacity (Available) or has handed it to the pod (Succeeded). A Pending reservation holds nothing yet.
     */
    private boolean isShown(PlannedPod pod) {
        PodSnapshot observed = pods.get(pod.key());
        if (observed != null && observed.node() != null) {
            return true;
        }
        ReservationSnapshot reservation = pod.reservation() == null ? null : reservations.get(pod.reservation());
        return reservation != null && (reservation.isHolding() || dev.muster.model.reservation.Reservation.SUCCEEDED.equals(reservation.phase()));
    }

    private List<NodeState> compute() {
        Map<String, ResourceList> promised = new HashMap<>();
        for (Promise promise : promises.values()) {
            for (PlannedPod pod : promise.pods().values()) {
                if (!isShown(pod)) {
                    promised.merge(pod.node(), pod.request(), ResourceList::plus);
                }
            }
        }
        List<NodeState> states = NodeStates.ofSnapshots(new ArrayList<>(nodes.values()), new ArrayList<>(pods.values()),
                new ArrayList<>(reservations.values()));
        if (promised.isEmpty()) {
            return states;
        }
        List<NodeState> withPromises = new ArrayList<>(states.size());
        for (NodeState state : states) {
            ResourceList held = promised.get(state.name());
            withPromises.add(held == null ? state : state.minus(held));
        }
        return withPromises;
    }
}
