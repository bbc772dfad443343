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
            if (isPartialGpu(node, node.free())) {
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

    static boolean isSchedulable(NodeState node) {
        return node.ready() && !node.unschedulable();
    }

    /** Whether a GPU node with this much free would be partly used. */
    public static boolean isPartialGpu(NodeState node, ResourceList free) {
        BigDecimal allocatable = node.allocatable().amount(ResourceNames.GPU);
        BigDecimal freeGpu = free.amount(ResourceNames.GPU);
        return allocatable.signum() > 0 && freeGpu.signum() > 0 && freeGpu.compareTo(allocatable) < 0;
    }
}
