package dev.muster.gangfit;

import static dev.muster.gangfit.SchedulingFixtures.gpuPod;
import static dev.muster.gangfit.SchedulingFixtures.node;
import static dev.muster.gangfit.SchedulingFixtures.pod;
import static dev.muster.gangfit.SchedulingFixtures.tainted;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.ReplicaSpec;
import dev.muster.model.json.Manifests;
import dev.muster.testing.seed.Seed;

class GangPackerTest {

    @Test
    void theSeedGangPacksOntoOneSmallNode() {
        PyTorchJob job = Manifests.read(Seed.text("pytorch-job.yaml"), PyTorchJob.class);
        List<PodNeeds> gang = new ArrayList<>();
        ReplicaSpec master = job.getSpec().pytorchReplicaSpecs().get("Master");
        ReplicaSpec worker = job.getSpec().pytorchReplicaSpecs().get("Worker");
        gang.add(PodNeeds.of("pytorch-test-master-0", master.template().getSpec()));
        gang.add(PodNeeds.of("pytorch-test-worker-0", worker.template().getSpec()));
        gang.add(PodNeeds.of("pytorch-test-worker-1", worker.template().getSpec()));

        GangPlan plan = GangPacker.pack(gang, List.of(node("small", 8, 0)));

        assertThat(plan).isEqualTo(new GangPlan.Placed(Map.of(
                "pytorch-test-worker-0", "small", "pytorch-test-worker-1", "small", "pytorch-test-master-0", "small")));
    }

    @Test
    void eightFreeGpusSpreadOverEightNodesCannotHostOneEightGpuPod() {
        List<NodeState> fragmented = IntStream.range(0, 8).mapToObj(i -> node("b-" + i, 64, 1)).toList();

        GangPlan plan = GangPacker.pack(List.of(gpuPod("w-0", 8)), fragmented);

        assertThat(plan).isEqualTo(new GangPlan.Unplaceable("no node has 8 nvidia.com/gpu free for pod w-0 (largest free: 1 on node b-0)"));
    }

    @Test
    void aGangThatFitsOnlyWholeIsPlacedOnePodPerNodeAndLargePodsKeepWholeNodes() {
        List<NodeState> nodes = List.of(node("a", 64, 8), node("b", 64, 8), node("c", 64, 2));
        List<PodNeeds> gang = List.of(pod("master-0", "{containers: [{name: c, image: i, resources: {requests: {cpu: 1}}}]}"),
                gpuPod("worker-0", 8), gpuPod("worker-1", 8));

        GangPlan plan = GangPacker.pack(gang, nodes);

        // Workers first, each onto an 8-GPU node; the CPU-only master goes where least CPU is left over.
        assertThat(plan).isInstanceOfSatisfying(GangPlan.Placed.class, placed -> {
            assertThat(placed.nodes()).containsExactly(Map.entry("worker-0", "a"), Map.entry("worker-1", "b"), Map.entry("master-0", "a"));
        });
    }

    @Test
    void whenTheLastPodOfAGangDoesNotFitNothingIsPlacedAndTheReasonSaysWhere() {
        List<NodeState> nodes = List.of(node("a", 64, 8), node("b-7", 64, 4));

        GangPlan plan = GangPacker.pack(List.of(gpuPod("worker-0", 8), gpuPod("worker-1", 4), gpuPod("worker-2", 4)), nodes);

        assertThat(plan).isEqualTo(new GangPlan.Unplaceable("the gang needs 16 nvidia.com/gpu in all, the cluster has 12 free"));
        assertThat(GangPacker.pack(List.of(gpuPod("worker-0", 8), gpuPod("worker-1", 8)), List.of(node("a", 64, 8), node("b-7", 64, 4), node("c", 64, 4))))
                .isEqualTo(new GangPlan.Unplaceable("no node has 8 nvidia.com/gpu free for pod worker-1 (largest free: 4 on node b-7)"));
    }

    @Test
    void nodesThatRefuseThePodAreCountedInTheReason() {
        List<NodeState> nodes = List.of(tainted(node("t-1", 64, 8), "dedicated", "infer", "NoSchedule"),
                tainted(node("t-2", 64, 8), "dedicated", "infer", "NoSchedule"), node("s", 64, 2));

        assertThat(GangPacker.pack(List.of(gpuPod("w", 4)), nodes)).isEqualTo(new GangPlan.Unplaceable(
                "no node has 4 nvidia.com/gpu free for pod w (largest free: 2 on node s); excluded: 2 untolerated taint"));
    }

    @Test
    void theSameInputAlwaysGivesTheSamePlan() {
        List<NodeState> nodes = IntStream.range(0, 20).mapToObj(i -> node("n-" + i, 32, i % 3 == 0 ? 8 : 4)).toList();
        List<PodNeeds> gang = IntStream.range(0, 10).mapToObj(i -> gpuPod("w-" + i, i % 2 == 0 ? 4 : 2)).toList();

        List<NodeState> reversed = new ArrayList<>(nodes);
        java.util.Collections.reverse(reversed);

        assertThat(GangPacker.pack(gang, nodes)).isEqualTo(GangPacker.pack(gang, reversed));
    }
}
