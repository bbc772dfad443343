package dev.muster.simulator.scheduling;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import dev.muster.gangfit.GangPacker;
import dev.muster.gangfit.GangPlan;
import dev.muster.gangfit.NodeFit;
import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.NodeStates;
import dev.muster.gangfit.PodNeeds;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.reservation.Reservations;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * The simulated member's scheduler, as a coscheduling scheduler with koordinator's reservations behaves:
 * <ul>
 * <li>pods of one pod group (the gang labels Muster sets) bind all together once {@code min-available} of them
 * exist, or all stay Pending with the reason; a pod without the labels is a gang of one;</li>
 * <li>a pending reservation is placed like a pod (its template's requests, selector, tolerations, pinned node)
 * and then holds that capacity from everyone but its owners;</li>
 * <li>a pod that owns a holding reservation goes to the reservation's node and uses what it holds;</li>
 * <li>an unused reservation past its expiry fails and holds nothing.</li>
 * </ul>
 * Pod groups and reservations are decided oldest first, each against the capacity the ones before it took.
 * Plain Java: the controller feeds it what the API server holds.
 */
public final class GangScheduler {

    /** The pod-group name label, as the vendor's scheduler reads it. */
    public static final String POD_GROUP = dev.muster.model.job.MemberJobs.POD_GROUP;
    /** How many pods of the group must be placed together. */
    public static final String MIN_AVAILABLE = dev.muster.model.job.MemberJobs.MIN_AVAILABLE;

    /** What the scheduler decided for one pod or reservation. */
    public sealed interface Decision {
    }

    /** Bind the pod to the node, using the reservation when one is named. */
    public record Bind(Pod pod, String node, Optional<Reservation> reservation) implements Decision {
    }

    /** The pod stays Pending; {@code message} says why, as the {@code PodScheduled=False} condition will. */
    public record Unschedulable(Pod pod, String message) implements Decision {
    }

    /** The reservation now holds its capacity on the node. */
    public record Reserve(Reservation reservation, String node) implements Decision {
    }

    /** The reservation stays Pending; {@code message} says why. */
    public record ReservationUnschedulable(Reservation reservation, String message) implements Decision {
    }

    /** The reservation went unused past its expiry. */
    public record Expire(Reservation reservation, Instant expiry) implements Decision {
    }

    /**
     * What the API server holds, and the time by which expiries are judged.
     *
     * @param snapshots what a pod takes from its node ({@link PodSnapshot#of}, or a memo of it)
     */
    public record ClusterState(List<Node> nodes, List<Pod> pods, List<Reservation> reservations, Instant now,
                               Function<Reservation, Optional<Instant>> expiry, Function<Pod, PodSnapshot> snapshots) {

        public ClusterState(List<Node> nodes, List<Pod> pods) {
            this(nodes, pods, List.of(), Instant.now(), Reservations::expiry, PodSnapshot::of);
        }
    }

    private GangScheduler() {
    }

    /** Decides every pending pod and reservation of the cluster at once. */
    public static List<Decision> schedule(List<Node> nodes, List<Pod> pods) {
        return schedule(new ClusterState(nodes, pods));
    }

    /** Decides every pending pod and reservation of the cluster at once, and expires what is due. */
    public static List<Decision> schedule(ClusterState cluster) {
        List<Decision> decisions = new ArrayList<>();
        List<Reservation> live = new ArrayList<>();
        for (Reservation reservation : cluster.reservations()) {
            Optional<Instant> expiry = unused(reservation) ? cluster.expiry().apply(reservation) : Optional.empty();
            if (expiry.isPresent() && !expiry.get().isAfter(cluster.now())) {
                decisions.add(new Expire(reservation, expiry.get()));
            } else {
                live.add(reservation);
            }
        }
        List<Pending> pending = pending(cluster.pods(), live);
        if (pending.isEmpty()) {
            // Most passes follow a pod starting or ending: with nothing to place, the nodes' usage is not needed.
            return decisions;
        }
        Map<String, NodeState> free = new TreeMap<>();
        List<PodSnapshot> snapshots = new ArrayList<>(cluster.pods().size());
        Map<String, PodSnapshot> bound = new HashMap<>();
        Map<String, Integer> boundMembers = new HashMap<>();
        for (Pod pod : cluster.pods()) {
            PodSnapshot snapshot = cluster.snapshots().apply(pod);
            snapshots.add(snapshot);
            if (snapshot.node() != null && !snapshot.finished()) {
                bound.put(snapshot.key(), snapshot);
                boundMembers.merge(groupKey(pod), 1, Integer::sum);
            }
        }
        NodeStates.ofSnapshots(cluster.nodes().stream().map(NodeSnapshot::of).toList(), snapshots,
                live.stream().map(ReservationSnapshot::of).toList()).forEach(state -> free.put(state.name(), state));
        Map<String, Reservation> holding = new LinkedHashMap<>();
        live.stream().filter(Reservations::isHolding).filter(GangScheduler::unusedOrShared)
                .forEach(reservation -> holding.put(reservation.getMetadata().getName(), reservation));
        for (Pending next : pending) {
            if (next.reservation() != null) {
                decisions.add(reserve(next.reservation(), free));
            } else {
                decisions.addAll(bindGroup(next.group(), boundMembers.getOrDefault(next.key(), 0), free, holding, bound));
            }
        }
        return decisions;
    }

    private static Decision reserve(Reservation reservation, Map<String, NodeState> free) {
        PodNeeds needs = PodNeeds.of("reservation " + reservation.getMetadata().getName(), Reservations.podSpec(reservation));
        Optional<String> pinned = Reservations.pinnedNode(reservation);
        List<NodeState> candidates = pinned.map(node -> free.containsKey(node) ? List.of(free.get(node)) : List.<NodeState>of())
                .orElseGet(() -> new ArrayList<>(free.values()));
        if (candidates.isEmpty()) {
            return new ReservationUnschedulable(reservation, "node " + pinned.orElse("") + " does not exist");
        }
        GangPlan plan = GangPacker.pack(List.of(needs), candidates);
        if (plan instanceof GangPlan.Placed placed) {
            String node = placed.nodes().get(needs.name());
            free.put(node, free.get(node).minus(needs.request()));
            return new Reserve(reservation, node);
        }
        return new ReservationUnschedulable(reservation, ((GangPlan.Unplaceable) plan).reason().text());
    }

    private static List<Decision> bindGroup(List<Pod> group, int boundMembers, Map<String, NodeState> free, Map<String, Reservation> holding,
                                            Map<String, PodSnapshot> bound) {
        List<Decision> decisions = new ArrayList<>();
        int minAvailable = minAvailable(group.get(0));
        // As coscheduling counts it: members already running count towards min-available, so a replaced pod
        // of a running gang is not held back waiting for siblings that are already there.
        if (group.size() + boundMembers < minAvailable) {
            String message = "pod group " + groupName(group.get(0)) + " has " + (group.size() + boundMembers) + " of its " + minAvailable
                    + " pods; waiting for the rest before scheduling any";
            group.forEach(pod -> decisions.add(new Unschedulable(pod, message)));
            return decisions;
        }
        Map<String, NodeState> working = new TreeMap<>(free);
        Map<String, Reservation> unclaimed = new LinkedHashMap<>(holding);
        Map<Pod, Reservation> reserved = new HashMap<>();
        List<Pod> unreserved = new ArrayList<>();
        for (Pod pod : group) {
            PodNeeds needs = needs(pod);
            Optional<Reservation> usable = unclaimed.values().stream().filter(reservation -> Reservations.isOwnedBy(reservation, pod))
                    .filter(reservation -> {
                        String node = reservation.getStatus().nodeName();
                        return working.containsKey(node) && NodeFit.check(needs, withHeld(working.get(node), reservation, bound)).isEmpty();
                    }).findFirst();
            if (usable.isPresent()) {
                Reservation reservation = usable.get();
                String node = reservation.getStatus().nodeName();
                working.put(node, withHeld(working.get(node), reservation, bound).minus(needs.request()));
                unclaimed.remove(reservation.getMetadata().getName());
                reserved.put(pod, reservation);
            } else {
                unreserved.add(pod);
            }
        }
        List<PodNeeds> needs = unreserved.stream().map(GangScheduler::needs).toList();
        GangPlan plan = needs.isEmpty() ? new GangPlan.Placed(Map.of()) : GangPacker.pack(needs, new ArrayList<>(working.values()));
        if (plan instanceof GangPlan.Unplaceable unplaceable) {
            String message = group.size() > 1 ? "pod group " + groupName(group.get(0)) + " of " + group.size()
                    + " pods cannot be placed together: " + unplaceable.reason().text() : unplaceable.reason().text();
            group.forEach(pod -> decisions.add(new Unschedulable(pod, message)));
            return decisions;
        }
        Map<String, String> placed = ((GangPlan.Placed) plan).nodes();
        for (int i = 0; i < unreserved.size(); i++) {
            String node = placed.get(needs.get(i).name());
            working.put(node, working.get(node).minus(needs.get(i).request()));
        }
        for (Pod pod : group) {
            Reservation reservation = reserved.get(pod);
            if (reservation != null) {
                decisions.add(new Bind(pod, reservation.getStatus().nodeName(), Optional.of(reservation)));
                holding.remove(reservation.getMetadata().getName());
            } else {
                decisions.add(new Bind(pod, placed.get(pod.getMetadata().getName()), Optional.empty()));
            }
        }
        free.clear();
        free.putAll(working);
        return decisions;
    }

    /** The node as the reservation's owner sees it: what the reservation holds is free for this pod. */
    private static NodeState withHeld(NodeState node, Reservation reservation, Map<String, PodSnapshot> bound) {
        return node.plus(ReservationSnapshot.of(reservation).held(bound));
    }

    private static PodNeeds needs(Pod pod) {
        return PodNeeds.of(pod.getMetadata().getName(), pod.getSpec());
    }

    /** A reservation no pod uses yet: only those expire. */
    private static boolean unused(Reservation reservation) {
        String phase = reservation.phase();
        boolean waitingOrHolding = Reservation.PENDING.equals(phase) || Reservation.AVAILABLE.equals(phase);
        return waitingOrHolding && (reservation.getStatus() == null || reservation.getStatus().currentOwners().isEmpty());
    }

    /** Whether a holding reservation can still take an owner: always, unless the first one used it up. */
    private static boolean unusedOrShared(Reservation reservation) {
        return !reservation.getSpec().isAllocateOnce() || reservation.getStatus().currentOwners().isEmpty();
    }

    /** One thing to decide: a pending reservation, or a pending pod group. */
    private record Pending(String created, String key, Reservation reservation, List<Pod> group) {
    }

    /** Pending reservations and pending pod groups (no node, not finished, not being deleted), oldest first. */
    private static List<Pending> pending(List<Pod> pods, List<Reservation> reservations) {
        Map<String, List<Pod>> groups = new LinkedHashMap<>();
        pods.stream()
                .filter(pod -> pod.getSpec() != null && pod.getSpec().getNodeName() == null && !NodeStates.isFinished(pod)
                        && pod.getMetadata().getDeletionTimestamp() == null)
                .sorted(Comparator.comparing((Pod pod) -> created(pod)).thenComparing(GangScheduler::key))
                .forEach(pod -> groups.computeIfAbsent(groupKey(pod), key -> new ArrayList<>()).add(pod));
        List<Pending> pending = new ArrayList<>();
        groups.forEach((key, group) -> pending.add(new Pending(created(group.get(0)), key, null, group)));
        Set<String> seen = new HashSet<>();
        for (Reservation reservation : reservations) {
            if (Reservation.PENDING.equals(reservation.phase()) && reservation.getMetadata().getDeletionTimestamp() == null
                    && seen.add(reservation.getMetadata().getName())) {
                pending.add(new Pending(created(reservation), "reservation/" + reservation.getMetadata().getName(), reservation, null));
            }
        }
        pending.sort(Comparator.comparing(Pending::created).thenComparing(Pending::key));
        return pending;
    }

    private static String created(HasMetadata object) {
        return String.valueOf(object.getMetadata().getCreationTimestamp());
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    private static String groupKey(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + groupName(pod);
    }

    private static String groupName(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String group = labels == null ? null : labels.get(POD_GROUP);
        return group != null ? group : "pod:" + pod.getMetadata().getName();
    }

    private static int minAvailable(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String value = labels == null ? null : labels.get(MIN_AVAILABLE);
        if (value == null || labels.get(POD_GROUP) == null) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            // The real scheduler ignores an unreadable min-available; so does this one.
            return 1;
        }
    }

    /** What the reservation holds, for status: its template's request with one pod slot. */
    static ResourceList holds(Reservation reservation) {
        return dev.muster.model.resource.PodRequests.onNode(Reservations.podSpec(reservation));
    }
}
