package dev.muster.placement.core.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.PodNeeds;
import dev.muster.gangfit.Workload;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.Fleets;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of node-level placement over random fleets and gangs. */
class GangPlannerProperties {

    @Property(tries = 300)
    void everyRankedClusterHoldsTheWholeGangOnNodesWithRoomForIt(
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 12) Integer> nodesPerCluster,
            @ForAll @Size(min = 1, max = 48) List<@IntRange(min = 0, max = 8) Integer> busyGpus,
            @ForAll @IntRange(min = 1, max = 12) int workers,
            @ForAll @IntRange(min = 1, max = 8) int gpuPerWorker) {
        List<ClusterInventory> fleet = fleet(nodesPerCluster, busyGpus);
        PyTorchJob job = Fleets.job("j", workers, String.valueOf(gpuPerWorker));

        GangPlanner.Options options = GangPlanner.plan(job, null, fleet, Map.of(), Instant.EPOCH, cluster -> FitMode.NODE);

        List<GangPod> gang = GangPod.of(job);
        assertThat(options.ranked().size() + options.reasons().size()).isEqualTo(fleet.size());
        for (Fits fits : options.ranked()) {
            // No partial gang: every pod has a node, on the ranked cluster.
            assertThat(fits.plan().keySet()).containsExactlyInAnyOrderElementsOf(gang.stream().map(GangPod::name).toList());
            ClusterInventory cluster = fleet.stream().filter(candidate -> candidate.cluster().equals(fits.cluster())).findFirst().orElseThrow();
            Map<String, ResourceList> planned = new HashMap<>();
            for (GangPod pod : gang) {
                planned.merge(fits.plan().get(pod.name()), PodNeeds.of(pod.name(), pod.spec()).request(), ResourceList::plus);
            }
            for (NodeState node : cluster.nodeStates()) {
                ResourceList onIt = planned.getOrDefault(node.name(), ResourceList.empty());
                assertThat(node.free().minus(onIt).negativeNames()).as("node %s over-committed", node.name()).isEmpty();
            }
        }
        assertThat(options.ranked()).isSortedAccordingTo(GangPlanner.SCORE);
        assertThat(options.ranked()).allSatisfy(fits -> assertThat(fits.freeGpu()).isGreaterThanOrEqualTo(
                BigDecimal.valueOf((long) workers * gpuPerWorker)));
    }

    @Property(tries = 500)
    void choosingWithTheBoundPicksTheClusterTheFullRankingPutsFirst(
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 10) Integer> nodesPerCluster,
            @ForAll @Size(min = 1, max = 60) List<@IntRange(min = 0, max = 8) Integer> busyGpus,
            @ForAll @IntRange(min = 0, max = 10) int workers,
            @ForAll @IntRange(min = 1, max = 8) int gpuPerWorker,
            @ForAll @IntRange(min = 0, max = 6) int estimatedClusters,
            @ForAll @Size(max = 3) List<@IntRange(min = 1, max = 8) Integer> workloadGpus) {
        List<ClusterInventory> fleet = fleet(nodesPerCluster, busyGpus);
        // With a workload (shapes of 1 to 8 GPUs), clusters rank by the rise of fragmentation, which bounds nothing.
        Map<ResourceList, Long> shapes = new HashMap<>();
        workloadGpus.forEach(gpus -> shapes.merge(ResourceList.parse(Map.of("cpu", "1", "nvidia.com/gpu", String.valueOf(gpus))), 1L, Long::sum));
        Workload workload = Workload.of(shapes);
        PyTorchJob job = Fleets.job("j", workers, String.valueOf(gpuPerWorker));
        // Some clusters in the sum-estimate mode, which scores by the fragmentation before the gang.
        java.util.function.Function<String, FitMode> modes = cluster -> Integer.parseInt(cluster.substring(1)) < estimatedClusters
                ? FitMode.SUM_ESTIMATE : FitMode.NODE;

        GangPlanner.Options ranked = GangPlanner.plan(job, null, fleet, Map.of(), Instant.EPOCH, modes, TopologyLevels.DEFAULT, workload);
        GangPlanner.Options chosen = GangPlanner.choose(job, null, fleet, Map.of(), Instant.EPOCH, modes, TopologyLevels.DEFAULT, workload);

        assertThat(chosen.best()).isEqualTo(ranked.best());
        if (ranked.best().isEmpty()) {
            assertThat(chosen.reasons()).isEqualTo(ranked.reasons());
        }
    }

    /** Clusters c0, c1, ... of 8-GPU nodes, each node with some of its GPUs taken by a pod already there. */
    private static List<ClusterInventory> fleet(List<Integer> nodesPerCluster, List<Integer> busyGpus) {
        List<ClusterInventory> fleet = new ArrayList<>();
        int busy = 0;
        for (int c = 0; c < nodesPerCluster.size(); c++) {
            ClusterInventory cluster = Fleets.cluster("c" + c, nodesPerCluster.get(c), "96", "8", Map.of());
            for (int n = 0; n < nodesPerCluster.get(c); n++) {
                cluster.observe(Fleets.load("busy-" + n, "c" + c + "-" + n, "1", String.valueOf(busyGpus.get(busy++ % busyGpus.size()))));
            }
            fleet.add(cluster);
        }
        return fleet;
    }
}
