package dev.muster.gangfit;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * Packs all pods of a gang onto one cluster's nodes at once, or says why that is impossible.
 * <p>
 * Deterministic: pods go largest first (GPU, then CPU, then memory, then name), each to the node it fits
 * that would have the least of the pod's main resource left (best fit, ties by node name), so that large
 * free nodes stay whole for large pods. A gang whose total request exceeds the cluster's total free
 * capacity is rejected before any search. Greedy packing can miss a packing that exists; it never returns
 * one that does not fit.
 */
public final class GangPacker {

    /** Increases closer than this (thousandths of a GPU) are equal: shares are sums of fractions. */
    private static final double EPSILON = 1e-6;

    private GangPacker() {
    }

    public static GangPlan pack(List<PodNeeds> pods, List<NodeState> nodes) {
        return pack(Gang.of(pods), NodeIndex.of(nodes));
    }

    /**
     * Packs the gang onto the indexed nodes; the index is read, never changed. When the gang does not fit, the
     * reason is worded only if read, from the same index, so the index must not change before then.
     */
    public static GangPlan pack(Gang gang, NodeIndex index) {
        return pack(gang, index, Workload.NONE);
    }

    /**
     * As {@link #pack(Gang, NodeIndex)}, each pod to the node where it raises the expected fragmentation for the
     * workload least (ties by best fit, then name); by best fit alone when the workload is empty or an amount has no
     * fixed-point form.
     */
    public static GangPlan pack(Gang gang, NodeIndex index, Workload workload) {
        long[] fixedTotal = gang.fixedTotal();
        if (fixedTotal == null || !index.isFixedPoint() || index.fixedTotalFree() == null) {
            Optional<String> overTotal = exceedsTotalFree(gang, index.totalFree());
            return overTotal.isPresent() ? new GangPlan.Unplaceable(overTotal.get()) : packExactly(gang, index);
        }
        // Fixed point is exact, so these answers are the exact search's; only its wording of why not is left for later.
        if (!FixedPoint.covers(index.fixedTotalFree(), fixedTotal)) {
            return new GangPlan.Unplaceable(Reason.worded(() -> exceedsTotalFree(gang, index.totalFree())
                    .orElse("the gang needs more than the cluster has free in all")));
        }
        if (!workload.isEmpty()) {
            GangPlan.Placed placed = packByFragmentation(gang, index, workload);
            if (placed != null) {
                return placed;
            }
        } else {
            Map<String, String> placed = packInFixedPoint(gang, index);
            if (placed != null) {
                return new GangPlan.Placed(placed);
            }
        }
        return new GangPlan.Unplaceable(Reason.worded(() -> packExactly(gang, index) instanceof GangPlan.Unplaceable unplaceable
                ? unplaceable.reason().text() : "no packing of the whole gang was found"));
    }

    /** The search on exact decimals, pod by pod, and the reason worded at once when a pod fits nowhere. */
    static GangPlan packExactly(Gang gang, NodeIndex index) {
        Touched touched = new Touched();
        Map<String, String> placed = new LinkedHashMap<>();
        for (PodNeeds pod : gang.largestFirst()) {
            NodeState best = bestFit(pod, index, touched);
            if (best == null) {
                List<NodeState> now = index.nodes().stream().map(node -> touched.now(node)).toList();
                return new GangPlan.Unplaceable(whyNoNode(pod, now));
            }
            touched.put(best.minus(pod.request()));
            placed.put(pod.name(), best.name());
        }
        return new GangPlan.Placed(placed);
    }

    /**
     * How many of the gang's pods, largest first, the exact search places before one fits nowhere: all of them when
     * the gang fits. Says how close a part of a cluster (a rack, say) comes to holding the gang.
     */
    public static int podsPlaced(Gang gang, NodeIndex index) {
        Touched touched = new Touched();
        int placed = 0;
        for (PodNeeds pod : gang.largestFirst()) {
            NodeState best = bestFit(pod, index, touched);
            if (best == null) {
                break;
            }
            touched.put(best.minus(pod.request()));
            placed++;
        }
        return placed;
    }

    /**
     * The same search as {@link #bestFit}, pod by pod, on fixed-point amounts: nothing is allocated per node
     * looked at. The nodes already used (at most one per pod) are few, so they are simply all compared. The
     * plan, or null when a pod fits nowhere.
     */
    private static Map<String, String> packInFixedPoint(Gang gang, NodeIndex index) {
        // The index keeps its nodes in name order, so positions compare as names do.
        List<NodeState> nodes = index.nodes();
        int pods = gang.largestFirst().size();
        // The nodes used so far, by position in the index, with their free capacity now.
        int[] usedPositions = new int[pods];
        long[][] usedFree = new long[pods][];
        int usedCount = 0;
        BitSet used = new BitSet(nodes.size());
        Map<String, String> placed = new LinkedHashMap<>();
        for (int p = 0; p < pods; p++) {
            PodNeeds pod = gang.largestFirst().get(p);
            long[] need = gang.fixedNeeds().get(p);
            boolean gpu = need[FixedPoint.GPU] > 0;
            int main = gpu ? FixedPoint.GPU : FixedPoint.CPU;
            int best = -1;
            int bestSlot = -1;
            long bestLeft = 0;
            for (int slot = 0; slot < usedCount; slot++) {
                long[] free = usedFree[slot];
                int position = usedPositions[slot];
                if (FixedPoint.covers(free, need) && NodeFit.accepts(pod, nodes.get(position))) {
                    long left = free[main] - need[main];
                    if (best < 0 || left < bestLeft || left == bestLeft && position < best) {
                        best = position;
                        bestSlot = slot;
                        bestLeft = left;
                    }
                }
            }
            FixedBuckets byFree = index.fixedByFree(gpu);
            // A pod that needs none of its main resource fits even where that is overcommitted (free below zero).
            found:
            for (int bucket = need[main] > 0 ? byFree.firstAtLeast(need[main]) : 0; bucket < byFree.size(); bucket++) {
                long left = byFree.amount(bucket) - need[main];
                if (best >= 0 && left > bestLeft) {
                    break;
                }
                for (int position : byFree.positions(bucket)) {
                    if (best >= 0 && left == bestLeft && position > best) {
                        break found;
                    }
                    if (!used.get(position) && FixedPoint.covers(index.fixedFree(position), need) && NodeFit.accepts(pod, nodes.get(position))) {
                        best = position;
                        bestSlot = -1;
                        break found;
                    }
                }
            }
            if (best < 0) {
                return null;
            }
            if (bestSlot >= 0) {
                usedFree[bestSlot] = FixedPoint.minus(usedFree[bestSlot], need);
            } else {
                used.set(best);
                usedPositions[usedCount] = best;
                usedFree[usedCount] = FixedPoint.minus(index.fixedFree(best), need);
                usedCount++;
            }
            placed.put(pod.name(), nodes.get(best).name());
        }
        return placed;
    }

    /**
     * Fragmentation gradient descent, pod by pod, largest first: of the nodes a pod fits (as they are after the pods
     * already planned), the one whose expected fragmentation it raises least; ties by the least of the pod's main
     * resource left, then by name. Nodes with the same free capacity score alike, so each such class is scored once and
     * its first node (by name) that accepts the pod stands for it; the nodes already planned are scored one by one. The
     * plan, or null when a pod fits nowhere.
     */
    private static GangPlan.Placed packByFragmentation(Gang gang, NodeIndex index, Workload workload) {
        List<NodeState> nodes = index.nodes();
        List<NodeIndex.FreeClass> classes = index.freeClasses();
        int pods = gang.largestFirst().size();
        Map<Integer, long[]> planned = new LinkedHashMap<>();
        Map<String, String> placed = new LinkedHashMap<>();
        double increase = 0;
        for (int p = 0; p < pods; p++) {
            PodNeeds pod = gang.largestFirst().get(p);
            long[] need = gang.fixedNeeds().get(p);
            int main = need[FixedPoint.GPU] > 0 ? FixedPoint.GPU : FixedPoint.CPU;
            Candidate best = null;
            for (Map.Entry<Integer, long[]> node : planned.entrySet()) {
                if (FixedPoint.covers(node.getValue(), need) && NodeFit.accepts(pod, nodes.get(node.getKey()))) {
                    best = Candidate.better(best, new Candidate(node.getKey(), workload.increase(node.getValue(), need),
                            node.getValue()[main] - need[main]));
                }
            }
            for (NodeIndex.FreeClass freeClass : classes) {
                if (!FixedPoint.covers(freeClass.free(), need)) {
                    continue;
                }
                double raised = workload.increase(freeClass.free(), need);
                long left = freeClass.free()[main] - need[main];
                for (int position : freeClass.positions()) {
                    Candidate candidate = new Candidate(position, raised, left);
                    if (best != null && Candidate.better(best, candidate) == best) {
                        // The class's later nodes come after this one by name: none of them is better either.
                        break;
                    }
                    if (!planned.containsKey(position) && NodeFit.accepts(pod, nodes.get(position))) {
                        best = candidate;
                        break;
                    }
                }
            }
            if (best == null) {
                return null;
            }
            planned.put(best.position(), FixedPoint.minus(planned.getOrDefault(best.position(), index.fixedFree(best.position())), need));
            increase += best.increase();
            placed.put(pod.name(), nodes.get(best.position()).name());
        }
        return new GangPlan.Placed(placed, increase / 1000);
    }

    /** A node a pod fits, with the rise of fragmentation and the main resource left were it placed there. */
    private record Candidate(int position, double increase, long left) {

        /** The better of the two: the least rise, then the least left, then the first by name. */
        static Candidate better(Candidate best, Candidate other) {
            if (best == null) {
                return other;
            }
            if (Math.abs(other.increase - best.increase) > EPSILON) {
                return other.increase < best.increase ? other : best;
            }
            if (other.left != best.left) {
                return other.left < best.left ? other : best;
            }
            return other.position < best.position ? other : best;
        }
    }

    /**
     * The nodes this packing has put pods on, as they are after them (the index holds every other node as it
     * is), indexed like the index itself so that a large gang does not compare every pod with every node it used.
     */
    private static final class Touched {
        private final Map<String, NodeState> byName = new HashMap<>();
        private final NavigableMap<BigDecimal, NavigableMap<String, NodeState>> byFreeGpu = new TreeMap<>();
        private final NavigableMap<BigDecimal, NavigableMap<String, NodeState>> byFreeCpu = new TreeMap<>();

        boolean contains(NodeState node) {
            return byName.containsKey(node.name());
        }

        NodeState now(NodeState node) {
            return byName.getOrDefault(node.name(), node);
        }

        /** The node as it is now that one more pod is planned onto it. */
        void put(NodeState after) {
            NodeState previous = byName.put(after.name(), after);
            for (String resource : List.of(ResourceNames.GPU, ResourceNames.CPU)) {
                NavigableMap<BigDecimal, NavigableMap<String, NodeState>> byFree = byFree(resource);
                if (previous != null) {
                    NavigableMap<String, NodeState> amount = byFree.get(previous.free().amount(resource));
                    amount.remove(previous.name());
                    if (amount.isEmpty()) {
                        byFree.remove(previous.free().amount(resource));
                    }
                }
                byFree.computeIfAbsent(after.free().amount(resource), key -> new TreeMap<>()).put(after.name(), after);
            }
        }

        NavigableMap<BigDecimal, NavigableMap<String, NodeState>> byFree(String resource) {
            return ResourceNames.GPU.equals(resource) ? byFreeGpu : byFreeCpu;
        }
    }

    /**
     * The node the pod fits that would have the least of its main resource left, ties by name; null when none.
     * Nodes are visited from the smallest sufficient free amount up, so the search stops at the first that
     * fits: among the nodes this packing used (as they are now), and among the others (as the index has them).
     */
    private static NodeState bestFit(PodNeeds pod, NodeIndex index, Touched touched) {
        String main = mainResource(pod);
        BigDecimal need = pod.request().amount(main);
        NodeState best = null;
        BigDecimal bestLeft = null;
        NavigableMap<BigDecimal, NavigableMap<String, NodeState>> used = touched.byFree(main);
        // A pod that needs none of its main resource fits even where that is overcommitted (free below zero).
        search:
        for (Map.Entry<BigDecimal, NavigableMap<String, NodeState>> amount : (need.signum() > 0 ? used.tailMap(need, true) : used).entrySet()) {
            for (NodeState node : amount.getValue().values()) {
                if (NodeFit.fits(pod, node)) {
                    best = node;
                    bestLeft = amount.getKey().subtract(need);
                    break search;
                }
            }
        }
        NavigableMap<BigDecimal, List<NodeState>> byFree = index.byFree(main);
        for (Map.Entry<BigDecimal, List<NodeState>> amount : (need.signum() > 0 ? byFree.tailMap(need, true) : byFree).entrySet()) {
            BigDecimal left = amount.getKey().subtract(need);
            if (bestLeft != null && left.compareTo(bestLeft) > 0) {
                break;
            }
            for (NodeState node : amount.getValue()) {
                if (bestLeft != null && left.compareTo(bestLeft) == 0 && node.name().compareTo(best.name()) > 0) {
                    break;
                }
                if (!touched.contains(node) && NodeFit.fits(pod, node)) {
                    return isBetter(left, node, bestLeft, best) ? node : best;
                }
            }
        }
        return best;
    }

    private static boolean isBetter(BigDecimal left, NodeState node, BigDecimal bestLeft, NodeState best) {
        if (best == null) {
            return true;
        }
        int byLeft = left.compareTo(bestLeft);
        return byLeft < 0 || byLeft == 0 && node.name().compareTo(best.name()) < 0;
    }

    /**
     * The tight bound: what the gang needs in all against what every schedulable node has free in all, the
     * reason when it exceeds it; this alone is the seed's estimate of whether a cluster can take a job.
     */
    public static Optional<String> exceedsTotalFree(List<PodNeeds> pods, List<NodeState> nodes) {
        return exceedsTotalFree(Gang.of(pods), nodes.stream().filter(NodeIndex::isSchedulable).map(NodeState::free)
                .reduce(ResourceList.empty(), ResourceList::plus));
    }

    /** The same, against the free capacity of the schedulable nodes in all. */
    public static Optional<String> exceedsTotalFree(Gang gang, ResourceList free) {
        ResourceList need = gang.total();
        for (String resource : need.names()) {
            if (need.amount(resource).compareTo(free.amount(resource)) > 0) {
                return Optional.of("the gang needs " + need.format(resource) + " " + resource + " in all, the cluster has "
                        + free.format(resource) + " free");
            }
        }
        return Optional.empty();
    }

    private static String mainResource(PodNeeds pod) {
        return pod.request().amount(ResourceNames.GPU).signum() > 0 ? ResourceNames.GPU : ResourceNames.CPU;
    }

    /**
     * The most useful reason: a resource no eligible node has enough of, with the largest amount free and
     * where; otherwise why the nodes are not eligible at all.
     */
    private static String whyNoNode(PodNeeds pod, java.util.Collection<NodeState> nodes) {
        List<NodeState> eligible = new ArrayList<>();
        Map<String, Integer> excluded = new TreeMap<>();
        for (NodeState node : nodes) {
            Optional<String> reason = NodeFit.filter(pod, node);
            if (reason.isEmpty()) {
                eligible.add(node);
            } else {
                excluded.merge(category(reason.get(), node), 1, Integer::sum);
            }
        }
        for (String resource : pod.request().names()) {
            BigDecimal need = pod.request().amount(resource);
            Optional<NodeState> largest = eligible.stream()
                    .max(Comparator.comparing((NodeState node) -> node.free().amount(resource)).thenComparing(NodeState::name, Comparator.reverseOrder()));
            if (need.signum() > 0 && (largest.isEmpty() || largest.get().free().amount(resource).compareTo(need) < 0)) {
                String where = largest.map(node -> " (largest free: " + Quantities.format(resource, node.free().amount(resource))
                        + " on node " + node.name() + ")").orElse("");
                return "no node has " + Quantities.format(resource, need) + " " + resource + " free for pod " + pod.name() + where
                        + describeExcluded(excluded);
            }
        }
        if (eligible.isEmpty()) {
            return "no node accepts pod " + pod.name() + describeExcluded(excluded);
        }
        return "no node has room for all of pod " + pod.name() + "'s request " + pod.request()
                + " at once: each lacks at least one resource" + describeExcluded(excluded);
    }

    private static String category(String reason, NodeState node) {
        String rest = reason.substring(("node " + node.name() + " ").length());
        if (rest.startsWith("has taint")) {
            return "untolerated taint";
        }
        if (rest.startsWith("does not match")) {
            return "node selector or affinity mismatch";
        }
        return rest;
    }

    private static String describeExcluded(Map<String, Integer> excluded) {
        if (excluded.isEmpty()) {
            return "";
        }
        return "; excluded: " + excluded.entrySet().stream().map(entry -> entry.getValue() + " " + entry.getKey())
                .collect(Collectors.joining(", "));
    }
}
