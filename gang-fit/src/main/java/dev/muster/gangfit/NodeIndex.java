package dev.muster.gangfit;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * One cluster's nodes, indexed for gang packing: the schedulable ones (Ready, not cordoned) by free GPU and
 * by free CPU, each amount's nodes in name order, so that a pod's best-fit node is found from the smallest
 * sufficient amount up rather than by a scan of every node; and the totals a decision needs (free capacity,
 * free GPUs, partly used GPU nodes). Built once per change of the cluster's inventory, read by every decision;
 * built from the previous index, it reuses what it worked out for every node that did not change.
 */
public final class NodeIndex {

    private final List<NodeState> nodes;
    /** What the index works out for the node at each position of {@link #nodes}. */
    private final NodeFacts[] facts;
    private final Map<String, Integer> positions;
    /** Each node's free capacity in fixed point, by position; null when one node's has no fixed-point form. */
    private final long[][] fixedFree;
    /** Positions of the schedulable nodes by free GPU and by free CPU in fixed point; null with {@link #fixedFree}. */
    private final FixedBuckets fixedByFreeGpu;
    private final FixedBuckets fixedByFreeCpu;
    /** What the schedulable nodes have free in all, in fixed point; null with {@link #fixedFree} or when the sum is too large. */
    private final long[] fixedTotalFree;
    private final BigDecimal freeGpu;
    private final int partialGpuNodes;
    /* Needed only off the fixed-point path (a decimal the fixed point cannot hold, or a gang over the total): made on first use. */
    private NavigableMap<BigDecimal, List<NodeState>> byFreeGpu;
    private NavigableMap<BigDecimal, List<NodeState>> byFreeCpu;
    private ResourceList totalFree;
    private List<FreeClass> freeClasses;

    /**
     * The schedulable nodes with one free capacity (in fixed point), in name order: a pod's fit and what it does to
     * fragmentation are the same on each, so they are worked out once for all of them.
     */
    record FreeClass(long[] free, int[] positions) {
    }

    /**
     * What the index needs of one node, worked out once per state of the node.
     *
     * @param fixedFree           free capacity in fixed point, or null
     * @param fixedAllocatableGpu allocatable GPUs in fixed point (0 when {@code fixedFree} is null)
     */
    private record NodeFacts(long[] fixedFree, long fixedAllocatableGpu, BigDecimal freeGpu, boolean partialGpu, boolean schedulable) {

        static NodeFacts of(NodeState node) {
            long[] free = FixedPoint.of(node.free());
            long[] allocatable = free == null ? null : FixedPoint.of(node.allocatable());
            BigDecimal freeGpu = node.free().amount(ResourceNames.GPU);
            return new NodeFacts(allocatable == null ? null : free, allocatable == null ? 0 : allocatable[FixedPoint.GPU], freeGpu,
                    isPartialGpu(node, freeGpu), isSchedulable(node));
        }
    }

    private NodeIndex(List<NodeState> nodes, NodeFacts[] facts, Map<String, Integer> positions) {
        this.nodes = nodes;
        this.facts = facts;
        this.positions = positions;
        boolean fixed = true;
        BigDecimal gpus = BigDecimal.ZERO;
        int partial = 0;
        int schedulable = 0;
        for (NodeFacts node : facts) {
            fixed &= node.fixedFree() != null;
            partial += node.partialGpu() ? 1 : 0;
            if (node.schedulable()) {
                gpus = gpus.add(node.freeGpu());
                schedulable++;
            }
        }
        this.freeGpu = gpus;
        this.partialGpuNodes = partial;
        if (!fixed) {
            this.fixedFree = null;
            this.fixedByFreeGpu = null;
            this.fixedByFreeCpu = null;
            this.fixedTotalFree = null;
            return;
        }
        long[][] free = new long[facts.length][];
        int[] schedulablePositions = new int[schedulable];
        long[] total = new long[FixedPoint.RESOURCES.size()];
        boolean totalFits = true;
        for (int i = 0, next = 0; i < facts.length; i++) {
            free[i] = facts[i].fixedFree();
            if (facts[i].schedulable()) {
                schedulablePositions[next++] = i;
                for (int resource = 0; resource < total.length && totalFits; resource++) {
                    try {
                        total[resource] = Math.addExact(total[resource], free[i][resource]);
                    } catch (ArithmeticException e) {
                        totalFits = false;
                    }
                }
            }
        }
        this.fixedFree = free;
        this.fixedByFreeGpu = FixedBuckets.of(free, FixedPoint.GPU, schedulablePositions);
        this.fixedByFreeCpu = FixedBuckets.of(free, FixedPoint.CPU, schedulablePositions);
        this.fixedTotalFree = totalFits ? total : null;
    }

    /**
     * GPU nodes partly used once the plan's pods are on them: the count now, changed only where the plan puts
     * pods, so it costs the plan's size, not the cluster's.
     */
    public int partialGpuNodesAfter(Gang gang, Map<String, String> plan) {
        if (fixedFree != null && gang.fixedNeeds() != null) {
            return partialGpuNodesAfterInFixedPoint(gang, plan);
        }
        Map<String, BigDecimal> taken = new HashMap<>();
        for (PodNeeds pod : gang.largestFirst()) {
            String node = plan.get(pod.name());
            BigDecimal gpus = pod.request().amount(ResourceNames.GPU);
            if (node != null && gpus.signum() != 0) {
                taken.merge(node, gpus, BigDecimal::add);
            }
        }
        int partial = partialGpuNodes;
        for (Map.Entry<String, BigDecimal> used : taken.entrySet()) {
            NodeState node = node(used.getKey());
            BigDecimal free = node.free().amount(ResourceNames.GPU);
            partial += (isPartialGpu(node, free.subtract(used.getValue())) ? 1 : 0) - (isPartialGpu(node, free) ? 1 : 0);
        }
        return partial;
    }

    /** The same count without decimal arithmetic: a gang uses few nodes, so they are kept in two small arrays. */
    private int partialGpuNodesAfterInFixedPoint(Gang gang, Map<String, String> plan) {
        int pods = gang.largestFirst().size();
        int[] used = new int[pods];
        long[] taken = new long[pods];
        int usedCount = 0;
        for (int p = 0; p < pods; p++) {
            long gpus = gang.fixedNeeds().get(p)[FixedPoint.GPU];
            Integer position = gpus == 0 ? null : positions.get(plan.get(gang.largestFirst().get(p).name()));
            if (position == null) {
                continue;
            }
            int slot = 0;
            while (slot < usedCount && used[slot] != position) {
                slot++;
            }
            if (slot == usedCount) {
                used[usedCount++] = position;
            }
            taken[slot] += gpus;
        }
        int partial = partialGpuNodes;
        for (int slot = 0; slot < usedCount; slot++) {
            long allocatable = facts[used[slot]].fixedAllocatableGpu();
            long free = fixedFree[used[slot]][FixedPoint.GPU];
            partial += (isPartialGpu(allocatable, free - taken[slot]) ? 1 : 0) - (isPartialGpu(allocatable, free) ? 1 : 0);
        }
        return partial;
    }

    private static boolean isPartialGpu(long allocatable, long free) {
        return allocatable > 0 && free > 0 && free < allocatable;
    }

    /** What the schedulable nodes have free in all, in fixed point; null when it has no fixed-point form. */
    long[] fixedTotalFree() {
        return fixedTotalFree;
    }

    public static NodeIndex of(List<NodeState> nodes) {
        return of(nodes, null);
    }

    /**
     * The index of these nodes, reusing what {@code previous} (an index of the same cluster, or null) worked out
     * for each node it holds in the very same state: a change costs the nodes it touched.
     */
    public static NodeIndex of(List<NodeState> nodes, NodeIndex previous) {
        List<NodeState> byName = new ArrayList<>(nodes);
        byName.sort(Comparator.comparing(NodeState::name));
        NodeFacts[] facts = new NodeFacts[byName.size()];
        boolean samePositions = previous != null && previous.nodes.size() == byName.size();
        for (int i = 0; i < facts.length; i++) {
            NodeState node = byName.get(i);
            Integer before = null;
            if (previous != null) {
                before = samePositions && previous.nodes.get(i).name().equals(node.name()) ? Integer.valueOf(i) : previous.positions.get(node.name());
                samePositions &= before != null && before == i;
            }
            facts[i] = before != null && previous.nodes.get(before) == node ? previous.facts[before] : NodeFacts.of(node);
        }
        Map<String, Integer> positions;
        if (samePositions) {
            positions = previous.positions;
        } else {
            positions = new HashMap<>(byName.size() * 2);
            for (int i = 0; i < byName.size(); i++) {
                positions.put(byName.get(i).name(), i);
            }
        }
        return new NodeIndex(Collections.unmodifiableList(byName), facts, positions);
    }

    /** Every node, schedulable or not, in name order. */
    public List<NodeState> nodes() {
        return nodes;
    }

    /** The node of this name, or null. */
    public NodeState node(String name) {
        Integer position = positions.get(name);
        return position == null ? null : nodes.get(position);
    }

    /** What the schedulable nodes have free in all. */
    public synchronized ResourceList totalFree() {
        if (totalFree == null) {
            List<ResourceList> free = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                if (facts[i].schedulable()) {
                    free.add(nodes.get(i).free());
                }
            }
            totalFree = ResourceList.sum(free);
        }
        return totalFree;
    }

    /** The schedulable nodes' free GPUs in all. */
    public BigDecimal freeGpu() {
        return freeGpu;
    }

    /** GPU nodes partly used now: some of their GPUs free, not all. */
    public int partialGpuNodes() {
        return partialGpuNodes;
    }

    /** The schedulable nodes by their free amount of {@code resource} (GPU or CPU), ascending; each amount's nodes in name order. */
    synchronized NavigableMap<BigDecimal, List<NodeState>> byFree(String resource) {
        if (byFreeGpu == null) {
            byFreeGpu = new TreeMap<>();
            byFreeCpu = new TreeMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                NodeState node = nodes.get(i);
                if (facts[i].schedulable()) {
                    byFreeGpu.computeIfAbsent(facts[i].freeGpu(), amount -> new ArrayList<>()).add(node);
                    byFreeCpu.computeIfAbsent(node.free().amount(ResourceNames.CPU), amount -> new ArrayList<>()).add(node);
                }
            }
        }
        return ResourceNames.GPU.equals(resource) ? byFreeGpu : byFreeCpu;
    }

    /** The schedulable nodes grouped by free capacity in fixed point (made on first use); only with {@link #isFixedPoint()}. */
    synchronized List<FreeClass> freeClasses() {
        if (freeClasses == null) {
            Map<List<Long>, List<Integer>> byFree = new java.util.LinkedHashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                if (facts[i].schedulable()) {
                    byFree.computeIfAbsent(java.util.Arrays.stream(fixedFree[i]).boxed().toList(), free -> new ArrayList<>()).add(i);
                }
            }
            List<FreeClass> classes = new ArrayList<>(byFree.size());
            byFree.forEach((free, positions) -> classes.add(new FreeClass(free.stream().mapToLong(Long::longValue).toArray(),
                    positions.stream().mapToInt(Integer::intValue).toArray())));
            freeClasses = Collections.unmodifiableList(classes);
        }
        return freeClasses;
    }

    /** Whether every node's free capacity has a fixed-point form, so packing may search in fixed point. */
    boolean isFixedPoint() {
        return fixedFree != null;
    }

    /** The free capacity in fixed point of the node at this position of {@link #nodes}. */
    long[] fixedFree(int position) {
        return fixedFree[position];
    }

    /** Positions of the schedulable nodes by their free GPU ({@code gpu} true) or CPU in fixed point, ascending. */
    FixedBuckets fixedByFree(boolean gpu) {
        return gpu ? fixedByFreeGpu : fixedByFreeCpu;
    }

    static boolean isSchedulable(NodeState node) {
        return node.ready() && !node.unschedulable();
    }

    /** Whether a GPU node with this many GPUs free would be partly used. */
    public static boolean isPartialGpu(NodeState node, BigDecimal freeGpu) {
        BigDecimal allocatable = node.allocatable().amount(ResourceNames.GPU);
        return allocatable.signum() > 0 && freeGpu.signum() > 0 && freeGpu.compareTo(allocatable) < 0;
    }
}
