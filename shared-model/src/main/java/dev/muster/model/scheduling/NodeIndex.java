package dev.muster.model.scheduling;

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
 * free GPUs, partly used GPU nodes). Built once per change of the cluster's inventory, read by every decision.
 */
public final class NodeIndex {

    private final List<NodeState> nodes;
    private final Map<String, NodeState> byName;
    private final NavigableMap<BigDecimal, List<NodeState>> byFreeGpu;
    private final NavigableMap<BigDecimal, List<NodeState>> byFreeCpu;
    /** Each node's free capacity in fixed point, by its position in {@link #nodes}; null when one node's has no fixed-point form. */
    private final long[][] fixedFree;
    /** Positions of the schedulable nodes by free GPU and by free CPU in fixed point; null with {@link #fixedFree}. */
    private final FixedBuckets fixedByFreeGpu;
    private final FixedBuckets fixedByFreeCpu;
    /** Each node's allocatable GPUs in fixed point, by position; null with {@link #fixedFree}. */
    private final long[] fixedAllocatableGpu;
    /** What the schedulable nodes have free in all, in fixed point; null with {@link #fixedFree} or when the sum is too large. */
    private final long[] fixedTotalFree;
    private final Map<String, Integer> positions;
    private final ResourceList totalFree;
    private final BigDecimal freeGpu;
    private final int partialGpuNodes;

    private NodeIndex(List<NodeState> nodes, NavigableMap<BigDecimal, List<NodeState>> byFreeGpu,
                      NavigableMap<BigDecimal, List<NodeState>> byFreeCpu, ResourceList totalFree, BigDecimal freeGpu, int partialGpuNodes) {
        this.nodes = nodes;
        this.byName = new HashMap<>(nodes.size() * 2);
        nodes.forEach(node -> byName.put(node.name(), node));
        this.byFreeGpu = byFreeGpu;
        this.byFreeCpu = byFreeCpu;
        this.totalFree = totalFree;
        this.freeGpu = freeGpu;
        this.partialGpuNodes = partialGpuNodes;
        long[][] fixed = new long[nodes.size()][];
        long[] allocatableGpu = new long[nodes.size()];
        NavigableMap<Long, List<Integer>> fixedGpu = new TreeMap<>();
        NavigableMap<Long, List<Integer>> fixedCpu = new TreeMap<>();
        for (int i = 0; i < nodes.size() && fixed != null; i++) {
            fixed[i] = FixedPoint.of(nodes.get(i).free());
            long[] allocatable = FixedPoint.of(nodes.get(i).allocatable());
            if (fixed[i] == null || allocatable == null) {
                fixed = null;
                continue;
            }
            allocatableGpu[i] = allocatable[FixedPoint.GPU];
            if (isSchedulable(nodes.get(i))) {
                fixedGpu.computeIfAbsent(fixed[i][FixedPoint.GPU], amount -> new ArrayList<>()).add(i);
                fixedCpu.computeIfAbsent(fixed[i][FixedPoint.CPU], amount -> new ArrayList<>()).add(i);
            }
        }
        this.fixedFree = fixed;
        this.fixedAllocatableGpu = fixed == null ? null : allocatableGpu;
        this.fixedByFreeGpu = fixed == null ? null : FixedBuckets.of(fixedGpu);
        this.fixedByFreeCpu = fixed == null ? null : FixedBuckets.of(fixedCpu);
        this.fixedTotalFree = fixed == null ? null : FixedPoint.of(totalFree);
        this.positions = new HashMap<>(nodes.size() * 2);
        for (int i = 0; i < nodes.size(); i++) {
            positions.put(nodes.get(i).name(), i);
        }
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
            NodeState node = byName.get(used.getKey());
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
            long allocatable = fixedAllocatableGpu[used[slot]];
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
        List<NodeState> byName = new ArrayList<>(nodes);
        byName.sort(Comparator.comparing(NodeState::name));
        NavigableMap<BigDecimal, List<NodeState>> byFreeGpu = new TreeMap<>();
        NavigableMap<BigDecimal, List<NodeState>> byFreeCpu = new TreeMap<>();
        ResourceList totalFree = ResourceList.empty();
        BigDecimal freeGpu = BigDecimal.ZERO;
        int partial = 0;
        for (NodeState node : byName) {
            if (isPartialGpu(node, node.free().amount(ResourceNames.GPU))) {
                partial++;
            }
            if (!isSchedulable(node)) {
                continue;
            }
            byFreeGpu.computeIfAbsent(node.free().amount(ResourceNames.GPU), amount -> new ArrayList<>()).add(node);
            byFreeCpu.computeIfAbsent(node.free().amount(ResourceNames.CPU), amount -> new ArrayList<>()).add(node);
            totalFree = totalFree.plus(node.free());
            freeGpu = freeGpu.add(node.free().amount(ResourceNames.GPU));
        }
        return new NodeIndex(Collections.unmodifiableList(byName), byFreeGpu, byFreeCpu, totalFree, freeGpu, partial);
    }

    /** Every node, schedulable or not, in name order. */
    public List<NodeState> nodes() {
        return nodes;
    }

    /** The node of this name, or null. */
    public NodeState node(String name) {
        return byName.get(name);
    }

    /** What the schedulable nodes have free in all. */
    public ResourceList totalFree() {
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
    NavigableMap<BigDecimal, List<NodeState>> byFree(String resource) {
        return ResourceNames.GPU.equals(resource) ? byFreeGpu : byFreeCpu;
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
