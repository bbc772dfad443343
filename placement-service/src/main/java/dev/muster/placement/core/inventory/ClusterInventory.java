package dev.muster.placement.core.inventory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.NodeStates;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.topology.TopologyDomains;

/**
 * What placement knows of one member cluster, updated one observation at a time: its nodes, the pods bound
 * to them, the reservations held on them, and the capacity placement itself has promised to jobs whose
 * pods or reservations the member has not shown yet. Free capacity counts each of these once: a reservation's
 * owner pods are subtracted from what it holds, and a promise ends for each pod as soon as that pod, or the
 * reservation made for it, is observed.
 * <p>
 * Every decision reads the node index, and every pod the member starts or ends changes it; so an observation
 * only marks the nodes it touches, and the next read recomputes those nodes alone, from running sums of their
 * pods' requests and of the promises the member does not show yet: what a change costs is its node's
 * reservations, not the cluster's pods nor even the node's pods and promises.
 */
public final class ClusterInventory {

    private final String cluster;
    private MemberSnapshot member;
    private final Map<String, NodeSnapshot> nodes = new TreeMap<>();
    private final Map<String, PodSnapshot> pods = new HashMap<>();
    private final Map<String, ReservationSnapshot> reservations = new HashMap<>();
    private final Map<String, Promise> promises = new LinkedHashMap<>();
    /** What the unfinished bound pods take from each node, and those pods by key (what reservations subtract). */
    private final Map<String, NodeUsage> usageByNode = new HashMap<>();
    private final Map<String, PodSnapshot> unfinishedPods = new HashMap<>();
    /** Reservations and pods still promised, by the node they take from. */
    private final Map<String, Set<String>> reservationsByNode = new HashMap<>();
    private final Map<String, Map<String, PlannedPod>> promisedByNode = new HashMap<>();
    /**
     * What the promised pods the member does not show yet take from each node, and those pods: kept as promises and
     * observations come and go, so a node's recompute does not walk its promises (hundreds, while a member's
     * scheduler lags behind placement).
     */
    private final Map<String, NodeUsage> unshownByNode = new HashMap<>();
    private final Set<PlannedPod> countedUnshown = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The job each planned pod is promised to, by pod key and by the reservation made for it. */
    private final Map<String, PromisedPod> promisedPods = new HashMap<>();
    private final Map<String, Set<String>> promisedPodsByReservation = new HashMap<>();
    /** The reservations made for each pod, by pod key, as their owners name it. */
    private final Map<String, Set<String>> reservationsByPodOwner = new HashMap<>();
    /** Each node's state as of the last read, and the nodes changed since. */
    private final Map<String, NodeState> states = new TreeMap<>();
    private final Set<String> changedNodes = new HashSet<>();
    private NodeIndex cachedIndex;
    private NodeIndex cachedEmptyIndex;
    /** The last index built, whose work on the nodes that did not change the next one reuses. */
    private NodeIndex previousIndex;
    private final TopologyDomains domains = new TopologyDomains();

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

    /** A planned pod still promised, with the job it is promised to. */
    private record PromisedPod(String job, PlannedPod pod) {
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
        NodeSnapshot previous = nodes.put(node.name(), node);
        if (!node.equals(previous)) {
            cachedEmptyIndex = null;
        }
        changed(node.name());
    }

    public void nodeGone(String name) {
        nodes.remove(name);
        cachedEmptyIndex = null;
        changed(name);
    }

    public void observe(PodSnapshot pod) {
        PodSnapshot previous = pods.put(pod.key(), pod);
        if (previous != null) {
            uncount(previous);
        }
        count(pod);
        PromisedPod promised = promisedPods.get(pod.key());
        if (promised != null) {
            recount(promised.pod());
            // Once bound, the pod counts on its node for as long as it exists; when it ends, its capacity is free.
            if (pod.node() != null) {
                forgetPlanned(promised.job(), promised.pod());
            }
        }
    }

    public void podGone(String namespace, String name) {
        PodSnapshot previous = pods.remove(namespace + "/" + name);
        if (previous != null) {
            uncount(previous);
        }
        PromisedPod promised = promisedPods.get(namespace + "/" + name);
        if (promised != null) {
            recount(promised.pod());
        }
    }

    public void observe(ReservationSnapshot reservation) {
        ReservationSnapshot previous = reservations.put(reservation.name(), reservation);
        if (previous != null) {
            unindex(reservationsByNode, previous.node(), previous.name());
            previous.podOwners().forEach(owner -> removeOwned(owner, previous.name()));
        }
        index(reservationsByNode, reservation.node(), reservation.name());
        reservation.podOwners().forEach(owner -> reservationsByPodOwner.computeIfAbsent(owner, key -> new HashSet<>()).add(reservation.name()));
        changedWithReservation(reservation.name());
    }

    public void reservationGone(String name) {
        ReservationSnapshot previous = reservations.remove(name);
        if (previous != null) {
            unindex(reservationsByNode, previous.node(), previous.name());
            previous.podOwners().forEach(owner -> removeOwned(owner, previous.name()));
        }
        changedWithReservation(name);
    }

    private void removeOwned(String owner, String reservation) {
        Set<String> names = reservationsByPodOwner.get(owner);
        if (names != null && names.remove(reservation) && names.isEmpty()) {
            reservationsByPodOwner.remove(owner);
        }
    }

    /** The reservations made for the pod ({@code namespace/name}), as last reported. */
    public List<ReservationSnapshot> reservationsFor(String podKey) {
        return reservationsByPodOwner.getOrDefault(podKey, Set.of()).stream().map(reservations::get).filter(java.util.Objects::nonNull).toList();
    }

    /** The node the member shows the pod ({@code namespace/name}) bound to, if it is bound. */
    public Optional<String> boundNode(String podKey) {
        PodSnapshot pod = pods.get(podKey);
        return pod == null ? Optional.empty() : Optional.ofNullable(pod.node());
    }

    /** The reservation as last reported, if it was. */
    public Optional<ReservationSnapshot> reservation(String name) {
        return Optional.ofNullable(reservations.get(name));
    }

    /** Every reservation the member shows, as last reported. */
    public Collection<ReservationSnapshot> reservations() {
        return Collections.unmodifiableCollection(reservations.values());
    }

    /** Holds the plan's capacity for the job until the member shows its pods or reservations. */
    public void promise(Promise promise) {
        release(promise.job());
        promises.put(promise.job(), promise);
        for (PlannedPod pod : promise.pods().values()) {
            PodSnapshot observed = pods.get(pod.key());
            if (observed != null && observed.node() != null) {
                forgetPlanned(promise.job(), pod);
                continue;
            }
            PromisedPod earlier = promisedPods.get(pod.key());
            if (earlier != null) {
                // A member holds one pod of a name: an older job's promise of it (a job since deleted and made
                // again under its name) ends here.
                forgetPlanned(earlier.job(), earlier.pod());
            }
            promisedPods.put(pod.key(), new PromisedPod(promise.job(), pod));
            promisedByNode.computeIfAbsent(pod.node(), node -> new HashMap<>()).put(pod.key(), pod);
            if (pod.reservation() != null) {
                promisedPodsByReservation.computeIfAbsent(pod.reservation(), name -> new HashSet<>()).add(pod.key());
            }
            recount(pod);
        }
    }

    /** Ends the job's promise: it was placed elsewhere, released, or is visible on the member in full. */
    public void release(String job) {
        Promise promise = promises.get(job);
        if (promise != null) {
            for (PlannedPod pod : List.copyOf(promise.pods().values())) {
                forgetPlanned(job, pod);
            }
            promises.remove(job);
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
            for (String name : changedNodes) {
                NodeSnapshot node = nodes.get(name);
                if (node == null) {
                    states.remove(name);
                } else {
                    states.put(name, compute(node));
                }
            }
            changedNodes.clear();
            cachedIndex = NodeIndex.of(new ArrayList<>(states.values()), previousIndex);
            previousIndex = cachedIndex;
        }
        return cachedIndex;
    }

    /** The cluster's domains of a topology level now, by label value, each indexed for packing. */
    public Map<String, NodeIndex> domains(String level) {
        return domains.of(index(), level);
    }

    /**
     * The nodes as if nothing ran on them and every one were Ready and schedulable: what the member could hold at
     * most, to tell a gang that waits for room from one that will never fit. Rebuilt only after a node changed.
     */
    public NodeIndex emptyIndex() {
        if (cachedEmptyIndex == null) {
            List<NodeState> empty = new ArrayList<>(nodes.size());
            for (NodeSnapshot node : nodes.values()) {
                empty.add(new NodeState(node.name(), node.labels(), node.taints(), node.allocatable(), node.allocatable(), true, false));
            }
            cachedEmptyIndex = NodeIndex.of(empty);
        }
        return cachedEmptyIndex;
    }

    /** Whether the member has reported any node. */
    public boolean hasNodes() {
        return !nodes.isEmpty();
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
        return reservation != null && (reservation.isHolding() || Reservation.SUCCEEDED.equals(reservation.phase()));
    }

    /** The node's free capacity from what is on it and what is promised on it. */
    private NodeState compute(NodeSnapshot node) {
        NodeUsage usage = usageByNode.get(node.name());
        ResourceList used = usage == null ? ResourceList.empty() : usage.used();
        // As NodeStates.ofSnapshots counts them: what each reservation still holds beyond its owner pods.
        for (String name : reservationsByNode.getOrDefault(node.name(), Set.of())) {
            ReservationSnapshot reservation = reservations.get(name);
            if (reservation.isHolding()) {
                used = used.plus(reservation.held(unfinishedPods));
            }
        }
        NodeState state = NodeStates.state(node, used);
        NodeUsage promised = unshownByNode.get(node.name());
        return promised == null ? state : state.minus(promised.used());
    }

    /**
     * Counts a planned pod among its node's unshown promises if it is still promised there and the member does
     * not show it, and stops counting it otherwise: called whenever either may have changed.
     */
    private void recount(PlannedPod pod) {
        boolean promisedThere = promisedByNode.getOrDefault(pod.node(), Map.of()).get(pod.key()) == pod;
        boolean count = promisedThere && !isShown(pod);
        if (count == countedUnshown.contains(pod)) {
            return;
        }
        changed(pod.node());
        if (count) {
            countedUnshown.add(pod);
            add(unshownByNode, pod.node(), pod.request());
        } else {
            countedUnshown.remove(pod);
            subtract(unshownByNode, pod.node(), pod.request());
        }
    }

    private void forgetPlanned(String job, PlannedPod pod) {
        changed(pod.node());
        promisedPods.remove(pod.key(), new PromisedPod(job, pod));
        Map<String, PlannedPod> onNode = promisedByNode.get(pod.node());
        if (onNode != null && onNode.remove(pod.key(), pod) && onNode.isEmpty()) {
            promisedByNode.remove(pod.node());
        }
        recount(pod);
        if (pod.reservation() != null) {
            unindex(promisedPodsByReservation, pod.reservation(), pod.key());
        }
        Promise promise = promises.get(job);
        if (promise != null && promise.pods().get(pod.name()) == pod) {
            Map<String, PlannedPod> rest = new HashMap<>(promise.pods());
            rest.remove(pod.name());
            if (rest.isEmpty()) {
                promises.remove(job);
            } else {
                promises.put(job, new Promise(job, rest));
            }
        }
    }

    /** Recounts the pods promised with this reservation: whether they count as promised depends on it. */
    private void changedWithReservation(String reservation) {
        for (String key : promisedPodsByReservation.getOrDefault(reservation, Set.of())) {
            recount(promisedPods.get(key).pod());
        }
    }

    /** Counts the pod on its node if it is bound and unfinished, as NodeStates.ofSnapshots would. */
    private void count(PodSnapshot pod) {
        changed(pod.node());
        if (pod.node() != null && !pod.finished()) {
            add(usageByNode, pod.node(), pod.request());
            unfinishedPods.put(pod.key(), pod);
        }
    }

    private void uncount(PodSnapshot pod) {
        changed(pod.node());
        if (pod.node() != null && !pod.finished()) {
            subtract(usageByNode, pod.node(), pod.request());
            unfinishedPods.remove(pod.key());
        }
    }

    private static void add(Map<String, NodeUsage> usageByNode, String node, ResourceList request) {
        usageByNode.computeIfAbsent(node, name -> new NodeUsage()).add(request);
    }

    private static void subtract(Map<String, NodeUsage> usageByNode, String node, ResourceList request) {
        NodeUsage usage = usageByNode.get(node);
        usage.remove(request);
        if (usage.isEmpty()) {
            usageByNode.remove(node);
        }
    }

    private void changed(String node) {
        if (node != null) {
            changedNodes.add(node);
            cachedIndex = null;
        }
    }

    private void index(Map<String, Set<String>> byNode, String node, String key) {
        if (node != null) {
            byNode.computeIfAbsent(node, name -> new HashSet<>()).add(key);
            changed(node);
        }
    }

    private void unindex(Map<String, Set<String>> byNode, String node, String key) {
        if (node == null) {
            return;
        }
        Set<String> keys = byNode.get(node);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            byNode.remove(node);
        }
        changed(node);
    }
}
