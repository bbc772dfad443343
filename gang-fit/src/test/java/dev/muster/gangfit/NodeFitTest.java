package dev.muster.gangfit;

import static dev.muster.gangfit.SchedulingFixtures.gpuPod;
import static dev.muster.gangfit.SchedulingFixtures.labelled;
import static dev.muster.gangfit.SchedulingFixtures.node;
import static dev.muster.gangfit.SchedulingFixtures.pod;
import static dev.muster.gangfit.SchedulingFixtures.tainted;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.resource.ResourceList;

class NodeFitTest {

    @Test
    void aPodFitsANodeWithEnoughFreeCapacityAndCountsAsOnePod() {
        PodNeeds pod = gpuPod("w-0", 8);

        assertThat(pod.request()).isEqualTo(ResourceList.parse(Map.of("cpu", "4", "nvidia.com/gpu", "8", "pods", "1")));
        assertThat(NodeFit.check(pod, node("a-1", 64, 8))).isEmpty();
        assertThat(NodeFit.check(pod, node("a-2", 64, 4))).contains("node a-2 has 4 nvidia.com/gpu free, the pod needs 8");
    }

    @Test
    void aNodeThatIsNotReadyOrCordonedTakesNothing() {
        NodeState ready = node("n", 64, 8);
        NodeState notReady = new NodeState("n", Map.of(), List.of(), ready.allocatable(), ready.free(), false, false);
        NodeState cordoned = new NodeState("n", Map.of(), List.of(), ready.allocatable(), ready.free(), true, true);

        assertThat(NodeFit.check(gpuPod("p", 1), notReady)).contains("node n is not Ready");
        assertThat(NodeFit.check(gpuPod("p", 1), cordoned)).contains("node n is cordoned");
    }

    @Test
    void nodeSelectorAndRequiredAffinityAreHonoured() {
        PodNeeds selecting = pod("p", "{nodeSelector: {pool: a100}, containers: [{name: c, image: i}]}");
        PodNeeds affine = pod("p", """
                {affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [
                  {matchExpressions: [{key: gpu-memory-gb, operator: Gt, values: ["40"]}]},
                  {matchExpressions: [{key: pool, operator: In, values: [h100]}]}]}}},
                 containers: [{name: c, image: i}]}
                """);
        NodeState a100 = labelled(node("n", 8, 8), Map.of("pool", "a100", "gpu-memory-gb", "80"));
        NodeState v100 = labelled(node("m", 8, 8), Map.of("pool", "v100", "gpu-memory-gb", "32"));

        assertThat(NodeFit.check(selecting, a100)).isEmpty();
        assertThat(NodeFit.check(selecting, v100)).contains("node m does not match nodeSelector pool=a100");
        assertThat(NodeFit.check(affine, a100)).isEmpty();
        assertThat(NodeFit.check(affine, v100)).contains("node m does not match the pod's required node affinity");
    }

    @Test
    void hardTaintsMustBeToleratedAndSoftOnesAreIgnored() {
        NodeState gpuOnly = tainted(node("g", 8, 8), "nvidia.com/gpu", "present", "NoSchedule");
        NodeState soft = tainted(node("s", 8, 8), "spot", "true", "PreferNoSchedule");
        PodNeeds plain = pod("p", "{containers: [{name: c, image: i}]}");
        PodNeeds equal = pod("p", "{tolerations: [{key: nvidia.com/gpu, operator: Equal, value: present, effect: NoSchedule}], containers: [{name: c, image: i}]}");
        PodNeeds exists = pod("p", "{tolerations: [{key: nvidia.com/gpu, operator: Exists}], containers: [{name: c, image: i}]}");
        PodNeeds everything = pod("p", "{tolerations: [{operator: Exists}], containers: [{name: c, image: i}]}");
        PodNeeds wrongValue = pod("p", "{tolerations: [{key: nvidia.com/gpu, operator: Equal, value: absent}], containers: [{name: c, image: i}]}");

        assertThat(NodeFit.check(plain, gpuOnly)).contains("node g has taint nvidia.com/gpu=present:NoSchedule that the pod does not tolerate");
        assertThat(NodeFit.check(equal, gpuOnly)).isEmpty();
        assertThat(NodeFit.check(exists, gpuOnly)).isEmpty();
        assertThat(NodeFit.check(everything, gpuOnly)).isEmpty();
        assertThat(NodeFit.check(wrongValue, gpuOnly)).isPresent();
        assertThat(NodeFit.check(plain, soft)).isEmpty();
    }
}
