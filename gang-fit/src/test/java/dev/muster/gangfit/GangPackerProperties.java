package dev.muster.gangfit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import dev.muster.model.resource.ResourceList;

class GangPackerProperties {

    @Property(tries = 500)
    void aPlacedGangNeverOvercommitsANodeAndEveryPodPassesTheNodesFilters(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 8) Integer> podGpus,
            @ForAll @Size(min = 1, max = 10) List<@IntRange(min = 0, max = 8) Integer> nodeGpus) {
        List<PodNeeds> gang = IntStream.range(0, podGpus.size()).mapToObj(i -> SchedulingFixtures.gpuPod("p-" + i, podGpus.get(i))).toList();
        List<NodeState> nodes = IntStream.range(0, nodeGpus.size()).mapToObj(i -> SchedulingFixtures.node("n-" + i, 16, nodeGpus.get(i))).toList();

        GangPlan plan = GangPacker.pack(gang, nodes);

        if (plan instanceof GangPlan.Placed placed) {
            assertThat(placed.nodes()).hasSize(gang.size());
            Map<String, ResourceList> used = new HashMap<>();
            gang.forEach(pod -> used.merge(placed.nodes().get(pod.name()), pod.request(), ResourceList::plus));
            Map<String, NodeState> byName = new HashMap<>();
            nodes.forEach(node -> byName.put(node.name(), node));
            gang.forEach(pod -> assertThat(NodeFit.filter(pod, byName.get(placed.nodes().get(pod.name())))).isEmpty());
            for (NodeState node : nodes) {
                assertThat(used.getOrDefault(node.name(), ResourceList.empty()).fitsWithin(node.free()))
                        .as("node %s over-committed", node.name()).isTrue();
            }
        } else {
            assertThat(((GangPlan.Unplaceable) plan).reason().text()).isNotBlank();
        }
    }

    /**
     * The index only speeds the search up: for any gang and any nodes (busy, cordoned, tainted, CPU-only), the
     * plan is the one a scan of every node for each pod makes, best fit on the pod's main resource, ties by name.
     */
    @Property(tries = 1000)
    void theIndexedSearchPlansExactlyAsAScanOfEveryNode(
            @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 4) Integer> podGpus,
            @ForAll @Size(min = 1, max = 30) List<@IntRange(min = 0, max = 8) Integer> nodeGpus,
            @ForAll @Size(min = 30, max = 30) List<@IntRange(min = 0, max = 9) Integer> nodeTraits) {
        List<PodNeeds> gang = IntStream.range(0, podGpus.size()).mapToObj(i -> SchedulingFixtures.gpuPod("p-" + i, podGpus.get(i))).toList();
        List<NodeState> nodes = nodes(nodeGpus, nodeTraits);

        GangPlan plan = GangPacker.pack(gang, nodes);
        assertThat(plan).isEqualTo(scanEveryNode(gang, nodes));
        // A gang the fixed-point search cannot place is explained by the exact search later: both must agree.
        GangPlan exactly = GangPacker.packExactly(Gang.of(gang), NodeIndex.of(nodes));
        if (plan instanceof GangPlan.Placed) {
            assertThat(exactly).isEqualTo(plan);
        } else {
            assertThat(exactly).isInstanceOf(GangPlan.Unplaceable.class);
        }
        if (plan instanceof GangPlan.Placed placed) {
            // The index counts the fragmentation left behind from the plan alone; count it over every node instead.
            Map<String, ResourceList> used = new HashMap<>();
            gang.forEach(pod -> used.merge(placed.nodes().get(pod.name()), pod.request(), ResourceList::plus));
            long partialAfter = nodes.stream().filter(node -> NodeIndex.isPartialGpu(node,
                    node.free().minus(used.getOrDefault(node.name(), ResourceList.empty())).amount("nvidia.com/gpu"))).count();
            assertThat(NodeIndex.of(nodes).partialGpuNodesAfter(Gang.of(gang), placed.nodes())).isEqualTo((int) partialAfter);
        }
    }

    /**
     * Nodes of these GPUs, each with a trait that sets its CPUs, some of its GPUs taken, and whether it is tainted (7)
     * or cordoned (8); names start with the trait's letter, so that name order and position differ.
     */
    private static List<NodeState> nodes(List<Integer> nodeGpus, List<Integer> nodeTraits) {
        return IntStream.range(0, nodeGpus.size()).mapToObj(i -> {
            int trait = nodeTraits.get(i);
            NodeState node = SchedulingFixtures.node("n-" + (char) ('a' + trait) + i, 4 + 4 * (trait % 4), nodeGpus.get(i));
            node = node.minus(ResourceList.parse(Map.of("nvidia.com/gpu", String.valueOf(Math.min(trait % 3, nodeGpus.get(i))))));
            if (trait == 7) {
                node = SchedulingFixtures.tainted(node, "dedicated", "training", "NoSchedule");
            }
            if (trait == 8) {
                node = new NodeState(node.name(), node.labels(), node.taints(), node.allocatable(), node.free(), true, true);
            }
            return node;
        }).toList();
    }

    /** The plain search the index replaces: every node looked at for every pod. */
    private static GangPlan scanEveryNode(List<PodNeeds> pods, List<NodeState> nodes) {
        Gang gang = Gang.of(pods);
        java.util.Optional<String> overTotal = GangPacker.exceedsTotalFree(pods, nodes);
        if (overTotal.isPresent()) {
            return new GangPlan.Unplaceable(overTotal.get());
        }
        Map<String, NodeState> state = new java.util.TreeMap<>();
        nodes.forEach(node -> state.put(node.name(), node));
        Map<String, String> placed = new java.util.LinkedHashMap<>();
        for (PodNeeds pod : gang.largestFirst()) {
            String main = pod.request().amount("nvidia.com/gpu").signum() > 0 ? "nvidia.com/gpu" : "cpu";
            java.util.Optional<NodeState> best = state.values().stream().filter(node -> NodeFit.check(pod, node).isEmpty())
                    .min(java.util.Comparator.comparing((NodeState node) -> node.free().amount(main).subtract(pod.request().amount(main)))
                            .thenComparing(NodeState::name));
            if (best.isEmpty()) {
                // The reason is the packer's own wording; only whether and where pods go is compared.
                return GangPacker.pack(pods, nodes) instanceof GangPlan.Unplaceable unplaceable ? unplaceable : new GangPlan.Unplaceable("differs");
            }
            state.put(best.get().name(), best.get().minus(pod.request()));
            placed.put(pod.name(), best.get().name());
        }
        return new GangPlan.Placed(placed);
    }

    /**
     * Against a workload, the search places each pod where a scan of every node, in exact decimals, finds the least rise
     * of the measure (free GPUs times the share of shapes that no longer fit), ties by best fit then name; and never
     * over-commits a node.
     */
    @Property(tries = 500)
    void packingAgainstAWorkloadPlansAsAScanOfEveryNodeForTheLeastRiseOfFragmentation(
            @ForAll @Size(min = 1, max = 12) List<@IntRange(min = 0, max = 4) Integer> podGpus,
            @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 8) Integer> nodeGpus,
            @ForAll @Size(min = 20, max = 20) List<@IntRange(min = 0, max = 9) Integer> nodeTraits,
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 8) Integer> shapeGpus,
            @ForAll @Size(min = 4, max = 4) List<@IntRange(min = 1, max = 16) Integer> shapeCpus) {
        List<PodNeeds> gang = IntStream.range(0, podGpus.size()).mapToObj(i -> SchedulingFixtures.gpuPod("p-" + i, podGpus.get(i))).toList();
        List<NodeState> nodes = nodes(nodeGpus, nodeTraits);
        Map<ResourceList, Long> shapes = new HashMap<>();
        for (int i = 0; i < shapeGpus.size(); i++) {
            shapes.merge(ResourceList.parse(Map.of("cpu", String.valueOf(shapeCpus.get(i)), "nvidia.com/gpu", String.valueOf(shapeGpus.get(i)))),
                    (long) i + 1, Long::sum);
        }

        GangPlan plan = GangPacker.pack(Gang.of(gang), NodeIndex.of(nodes), Workload.of(shapes));

        Map<String, String> scanned = scanForLeastFragmentation(gang, nodes, shapes);
        if (plan instanceof GangPlan.Placed placed) {
            assertThat(placed.nodes()).isEqualTo(scanned);
        } else {
            assertThat(scanned).as("the scan places what the search does not").isNull();
        }
    }

    /** Each pod, largest first, to the node of the least rise of fragmentation; null when one fits nowhere. */
    private static Map<String, String> scanForLeastFragmentation(List<PodNeeds> pods, List<NodeState> nodes, Map<ResourceList, Long> shapes) {
        if (GangPacker.exceedsTotalFree(pods, nodes).isPresent()) {
            return null;
        }
        long total = shapes.values().stream().mapToLong(Long::longValue).sum();
        java.util.function.Function<NodeState, java.math.BigDecimal> fragmentation = node -> {
            java.math.BigDecimal gpus = node.free().amount("nvidia.com/gpu");
            if (gpus.signum() <= 0) {
                return java.math.BigDecimal.ZERO;
            }
            long unfit = shapes.entrySet().stream().filter(shape -> !shape.getKey().fitsWithin(node.free())).mapToLong(Map.Entry::getValue).sum();
            return gpus.multiply(java.math.BigDecimal.valueOf(unfit)).divide(java.math.BigDecimal.valueOf(total), 12, java.math.RoundingMode.HALF_EVEN);
        };
        Map<String, NodeState> state = new java.util.TreeMap<>();
        nodes.forEach(node -> state.put(node.name(), node));
        Map<String, String> placed = new java.util.LinkedHashMap<>();
        for (PodNeeds pod : Gang.of(pods).largestFirst()) {
            String main = pod.request().amount("nvidia.com/gpu").signum() > 0 ? "nvidia.com/gpu" : "cpu";
            java.util.Optional<NodeState> best = state.values().stream().filter(node -> NodeFit.check(pod, node).isEmpty())
                    .min(java.util.Comparator.comparing((NodeState node) -> fragmentation.apply(node.minus(pod.request()))
                                    .subtract(fragmentation.apply(node)).setScale(6, java.math.RoundingMode.HALF_EVEN))
                            .thenComparing((NodeState node) -> node.free().amount(main).subtract(pod.request().amount(main)))
                            .thenComparing(NodeState::name));
            if (best.isEmpty()) {
                return null;
            }
            state.put(best.get().name(), best.get().minus(pod.request()));
            placed.put(pod.name(), best.get().name());
        }
        return placed;
    }
}
