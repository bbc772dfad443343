package dev.muster.gangfit;

import static dev.muster.gangfit.SchedulingFixtures.gpuPod;
import static dev.muster.gangfit.SchedulingFixtures.node;
import static dev.muster.gangfit.SchedulingFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.resource.ResourceList;

/** Packing against a workload: where fragmentation gradient descent puts pods that best fit would put elsewhere. */
class FragmentationTest {

    private static ResourceList shape(int cpu, int gpus) {
        return ResourceList.parse(Map.of("cpu", String.valueOf(cpu), "nvidia.com/gpu", String.valueOf(gpus)));
    }

    private static Map<String, String> placed(GangPlan plan) {
        assertThat(plan).isInstanceOf(GangPlan.Placed.class);
        return ((GangPlan.Placed) plan).nodes();
    }

    @Test
    void aCpuOnlyPodGoesWhereItStrandsNoGpusThoughBestFitWouldTakeAGpuNodesLastCpus() {
        // gpu-node has 8 GPUs and 6 cores free; cpu-node has 32 cores and no GPU. Best fit takes gpu-node's CPUs.
        List<NodeState> nodes = List.of(node("cpu-node", 32, 0), node("gpu-node", 6, 8));
        PodNeeds cpuOnly = pod("preprocess", "{containers: [{name: c, image: i, resources: {requests: {cpu: 4}}}]}");
        Workload workload = Workload.of(Map.of(shape(4, 1), 10L));

        assertThat(placed(GangPacker.pack(Gang.of(List.of(cpuOnly)), NodeIndex.of(nodes)))).containsEntry("preprocess", "gpu-node");
        GangPlan plan = GangPacker.pack(Gang.of(List.of(cpuOnly)), NodeIndex.of(nodes), workload);

        assertThat(placed(plan)).containsEntry("preprocess", "cpu-node");
        assertThat(((GangPlan.Placed) plan).fragmentationIncrease()).isZero();
    }

    @Test
    void aOneGpuPodLeavesFreeGpusInPiecesTheCommonTwoGpuPodsStillFit() {
        // b has 2 free, a has 3: best fit takes b and leaves a lone GPU there; a 2-GPU workload wants a taken instead.
        List<NodeState> nodes = List.of(node("a", 64, 3), node("b", 64, 2));
        Gang onePod = Gang.of(List.of(gpuPod("w-0", 1)));
        Workload twoGpuPods = Workload.of(Map.of(shape(4, 2), 9L, shape(4, 1), 1L));

        assertThat(placed(GangPacker.pack(onePod, NodeIndex.of(nodes)))).containsEntry("w-0", "b");
        GangPlan plan = GangPacker.pack(onePod, NodeIndex.of(nodes), twoGpuPods);

        assertThat(placed(plan)).containsEntry("w-0", "a");
        // a: 3 free, every shape fits (0) -> 2 free, every shape fits (0).
        assertThat(((GangPlan.Placed) plan).fragmentationIncrease()).isZero();
    }

    @Test
    void theMeasureIsTheFreeGpusTimesTheShareOfShapesThatDoNotFit() {
        Workload workload = Workload.of(Map.of(shape(4, 8), 1L, shape(4, 1), 3L, shape(4, 0), 100L));
        long[] free = FixedPoint.of(ResourceList.parse(Map.of("cpu", "16", "nvidia.com/gpu", "4")));

        assertThat(workload.shapes()).as("a shape without GPUs is not counted").isEqualTo(2);
        // The 8-GPU shape (a quarter of the GPU pods) does not fit: 4 GPUs x 0.25.
        assertThat(workload.fragmentation(free)).isEqualTo(1000.0);
        assertThat(Workload.NONE.fragmentation(free)).isZero();
    }

    @Test
    void theRecorderKeepsTheLatestPodsMostFrequentShapes() {
        WorkloadRecorder recorder = new WorkloadRecorder(4, 1, 1);
        recorder.record(shape(4, 0));
        assertThat(recorder.workload().isEmpty()).as("a CPU-only pod").isTrue();

        recorder.record(shape(4, 8));
        recorder.record(shape(4, 8));
        recorder.record(shape(4, 1));
        assertThat(recorder.workload().shapes()).as("the most frequent only").isEqualTo(1);
        long[] sevenGpus = FixedPoint.of(ResourceList.parse(Map.of("cpu", "16", "nvidia.com/gpu", "7")));
        assertThat(recorder.workload().fragmentation(sevenGpus)).as("8-GPU pods do not fit 7").isEqualTo(7000.0);

        recorder.record(shape(4, 1));
        recorder.record(shape(4, 1));
        recorder.record(shape(4, 1));
        assertThat(recorder.workload().fragmentation(sevenGpus)).as("the window holds only 1-GPU pods now").isZero();
    }
}
