package dev.muster.placement.core.gang;

import static dev.muster.placement.core.Fleets.cluster;
import static dev.muster.placement.core.Fleets.job;
import static dev.muster.placement.core.Fleets.load;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;
import dev.muster.gangfit.Workload;

class GangPlannerTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    /** The default local fleet's shape: gpu-a has whole 8-GPU nodes; gpu-b more GPUs in all, 4 per node at most. */
    private static List<ClusterInventory> fragmentedFleet() {
        ClusterInventory gpuA = cluster("gpu-a", 4, "96", "8", Map.of("gpu", "a100"));
        gpuA.observe(load("busy", "gpu-a-0", "48", "6"));
        ClusterInventory gpuB = cluster("gpu-b", 16, "48", "4", Map.of("gpu", "a10"));
        for (int i = 0; i < 8; i++) {
            gpuB.observe(load("busy-" + i, "gpu-b-" + i, "16", "2"));
        }
        return List.of(gpuA, gpuB);
    }

    private static GangPlanner.Options plan(List<ClusterInventory> fleet, PropagationPolicy policy, FitMode mode) {
        return GangPlanner.plan(job("train", 2, "8"), policy, fleet, Map.of(), NOW, cluster -> mode);
    }

    @Test
    void anEightGpuWorkerGoesWhereANodeHoldsItNotWhereTheMostGpusAre() {
        GangPlanner.Options options = plan(fragmentedFleet(), null, FitMode.NODE);

        assertThat(options.best()).get().extracting(Fits::cluster).isEqualTo("gpu-a");
        assertThat(options.best().get().plan()).containsOnlyKeys("train-master-0", "train-worker-0", "train-worker-1");
        assertThat(options.best().get().plan().get("train-worker-0")).isNotEqualTo("gpu-a-0");
        assertThat(options.reasons()).containsEntry("gpu-b",
                "no node has 8 nvidia.com/gpu free for pod train-worker-0 (largest free: 4 on node gpu-b-10)");
    }

    @Test
    void theSeedsSumEstimateMisplacesTheSameJobItsKnownLimit() {
        // gpu-a is busier now: no node has 8 GPUs free, and 14 free in all. Node-level fit places the job nowhere
        // (it waits); the seed's estimate sees 48 free GPUs on gpu-b and binds it there, where no node can hold a worker.
        ClusterInventory gpuA = cluster("gpu-a", 2, "96", "8", Map.of());
        gpuA.observe(load("busy-0", "gpu-a-0", "1", "1"));
        gpuA.observe(load("busy-1", "gpu-a-1", "1", "1"));
        ClusterInventory gpuB = cluster("gpu-b", 16, "48", "4", Map.of());
        for (int i = 0; i < 8; i++) {
            gpuB.observe(load("busy-" + i, "gpu-b-" + i, "16", "2"));
        }

        assertThat(plan(List.of(gpuA, gpuB), null, FitMode.NODE).ranked()).isEmpty();
        GangPlanner.Options estimate = plan(List.of(gpuA, gpuB), null, FitMode.SUM_ESTIMATE);
        assertThat(estimate.ranked()).extracting(Fits::cluster).containsExactly("gpu-b");
        assertThat(estimate.best().get().plan()).isEmpty();
        assertThat(estimate.reasons()).containsEntry("gpu-a", "the gang needs 16 nvidia.com/gpu in all, the cluster has 14 free");
    }

    @Test
    void scoreIsLeastFragmentationThenMostFreeGpuThenName() {
        // One 4-GPU worker: on "whole" it breaks an 8-GPU node; on "half" it fills the half-used node, although
        // "whole" has more free GPUs.
        ClusterInventory whole = cluster("whole", 2, "96", "8", Map.of());
        ClusterInventory half = cluster("half", 2, "96", "8", Map.of());
        half.observe(load("a", "half-0", "1", "4"));
        GangPlanner.Options byFragmentation = GangPlanner.plan(job("j", 1, "4"), null, List.of(whole, half), Map.of(), NOW, c -> FitMode.NODE);
        assertThat(byFragmentation.ranked()).extracting(Fits::cluster).containsExactly("half", "whole");
        assertThat(byFragmentation.ranked()).extracting(Fits::partialGpuNodes).containsExactly(0, 1);
        assertThat(byFragmentation.best().get().plan()).containsEntry("j-worker-0", "half-0");

        ClusterInventory bigger = cluster("bigger", 3, "96", "8", Map.of());
        ClusterInventory smaller = cluster("smaller", 2, "96", "8", Map.of());
        assertThat(GangPlanner.plan(job("j", 1, "8"), null, List.of(smaller, bigger), Map.of(), NOW, c -> FitMode.NODE).ranked())
                .extracting(Fits::cluster).containsExactly("bigger", "smaller");

        ClusterInventory beta = cluster("beta", 2, "96", "8", Map.of());
        ClusterInventory alpha = cluster("alpha", 2, "96", "8", Map.of());
        assertThat(GangPlanner.plan(job("j", 1, "8"), null, List.of(beta, alpha), Map.of(), NOW, c -> FitMode.NODE).ranked())
                .extracting(Fits::cluster).containsExactly("alpha", "beta");
    }

    @Test
    void candidatesHonourAffinityReadinessAndFailoverExclusions() {
        PropagationPolicy policy = Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: p, namespace: default}
                spec:
                  placement:
                    clusterAffinity:
                      clusterNames: [a, b, c, d, e]
                      labelSelector: {matchLabels: {pool: training}}
                """, PropagationPolicy.class);
        ClusterInventory a = cluster("a", 1, "96", "8", Map.of("pool", "training"));
        ClusterInventory b = cluster("b", 1, "96", "8", Map.of("pool", "inference"));
        ClusterInventory c = cluster("c", 1, "96", "8", Map.of("pool", "training"));
        c.observe(new MemberSnapshot("c", false, true, Map.of("pool", "training"), Instant.parse("2026-11-29T11:59:00Z")));
        ClusterInventory d = cluster("d", 1, "96", "8", Map.of("pool", "training"));
        ClusterInventory e = cluster("e", 1, "96", "8", Map.of("pool", "training"));
        e.observe(new dev.muster.model.inventory.NodeSnapshot("e-0", Map.of(), List.of(), dev.muster.model.resource.ResourceList.empty(), false, false));
        ClusterInventory f = cluster("f", 1, "96", "8", Map.of("pool", "training"));

        GangPlanner.Options options = GangPlanner.plan(job("j", 1, "8"), policy, List.of(a, b, c, d, e, f),
                Map.of("d", NOW.plusSeconds(60), "a", NOW.minusSeconds(1)), NOW, cluster -> FitMode.NODE);

        assertThat(options.ranked()).extracting(Fits::cluster).containsExactly("a");
        assertThat(options.reasons()).containsExactly(
                Map.entry("b", "cluster labels {pool=inference} do not match clusterAffinity.labelSelector"),
                Map.entry("c", "the member's API is unreachable (last seen healthy 2026-11-29T11:59:00Z)"),
                Map.entry("d", "excluded after a failover of this job until 2026-11-29T12:01:00Z"),
                Map.entry("e", "no Ready, schedulable node"),
                Map.entry("f", "not in clusterAffinity.clusterNames [a, b, c, d, e]"));
    }

    /**
     * A CPU-only gang on the cluster with the most free GPUs would take the CPUs those GPUs need: scored against the
     * workload, it goes to the CPU pool, and the GPU pool stays usable by the GPU pods that come.
     */
    @Test
    void aCpuOnlyGangScoredAgainstTheWorkloadLeavesTheGpuNodesCpusToTheirGpus() {
        ClusterInventory cpuPool = cluster("cpu-pool", 2, "64", "0", Map.of());
        ClusterInventory gpuPool = cluster("gpu-pool", 2, "4", "8", Map.of());
        Workload oneGpuPods = Workload.of(Map.of(dev.muster.model.resource.ResourceList.parse(Map.of("cpu", "4", "nvidia.com/gpu", "1")), 1L));

        GangPlanner.Options bestFit = GangPlanner.plan(job("prep", 0, "0"), null, List.of(cpuPool, gpuPool), Map.of(), NOW, cluster -> FitMode.NODE);
        GangPlanner.Options scored = GangPlanner.plan(job("prep", 0, "0"), null, List.of(cpuPool, gpuPool), Map.of(), NOW, cluster -> FitMode.NODE,
                TopologyLevels.DEFAULT, oneGpuPods);

        assertThat(bestFit.best()).get().extracting(Fits::cluster).as("most free GPUs").isEqualTo("gpu-pool");
        assertThat(scored.best()).get().extracting(Fits::cluster).isEqualTo("cpu-pool");
        assertThat(scored.ranked()).extracting(Fits::fragmentation).as("8 GPUs left without the CPU a pod needs").containsExactly(0.0, 8.0);
    }
}
