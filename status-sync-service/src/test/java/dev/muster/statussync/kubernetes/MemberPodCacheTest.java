package dev.muster.statussync.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.job.GangPod;
import dev.muster.model.member.MemberPodRow;
import dev.muster.statussync.core.mirror.MemberPod;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

class MemberPodCacheTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** A worker as a member shows it, with the parts status sync never reads: environment, volumes, probes, managed fields. */
    private static Pod worker(String waitingReason) {
        return new PodBuilder()
                .withNewMetadata().withNamespace("default").withName("pytorch-test-worker-0").withUid("0b5c").withResourceVersion("42")
                .withCreationTimestamp("2026-11-30T10:00:00Z")
                .withLabels(Map.of(GangPod.JOB_NAME_LABEL, "pytorch-test", "training.kubeflow.org/replica-type", "worker"))
                .withAnnotations(Map.of("kubectl.kubernetes.io/last-applied-configuration", "{\"a\":\"long text\"}".repeat(20)))
                .addNewManagedField().withManager("kubelet").withOperation("Update").withApiVersion("v1").endManagedField()
                .addNewOwnerReference().withApiVersion("kubeflow.org/v1").withKind("PyTorchJob").withName("pytorch-test").withUid("9f1e")
                .endOwnerReference()
                .endMetadata()
                .withNewSpec().withNodeName("gpu-node-3").withRestartPolicy("OnFailure").withOverhead(Map.of("cpu", new Quantity("10m")))
                .addNewInitContainer().withName("sidecar").withRestartPolicy("Always").withImage("proxy")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"))).endResources().endInitContainer()
                .addNewInitContainer().withName("fetch").withImage("busybox")
                .withNewResources().withLimits(Map.of("memory", new Quantity("8Gi"))).endResources().endInitContainer()
                .addNewContainer().withName("pytorch").withImage("docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727")
                .withCommand("python3", "/opt/pytorch-mnist/mnist.py", "--epochs=1")
                .addNewEnv().withName("MASTER_ADDR").withValue("pytorch-test-master-0").endEnv()
                .addNewEnv().withName("WORLD_SIZE").withValue("3").endEnv()
                .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
                .withNewLivenessProbe().withNewExec().withCommand("true").endExec().endLivenessProbe()
                .withNewResources().withRequests(Map.of("cpu", new Quantity("2"), "memory", new Quantity("2Gi")))
                .withLimits(Map.of("nvidia.com/gpu", new Quantity("1"))).endResources().endContainer()
                .addNewVolume().withName("data").withNewEmptyDir().endEmptyDir().endVolume()
                .addNewToleration().withKey("nvidia.com/gpu").withOperator("Exists").withEffect("NoSchedule").endToleration()
                .endSpec()
                .withNewStatus().withPhase(waitingReason == null ? "Running" : "Pending").withStartTime("2026-11-30T10:00:05Z")
                .withHostIP("10.0.0.3").withPodIP("10.1.0.7")
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime("2026-11-30T10:00:01Z").endCondition()
                .addNewCondition().withType("Ready").withStatus(waitingReason == null ? "True" : "False").endCondition()
                .addNewContainerStatus().withName("pytorch").withImage("pytorch-mnist").withImageID("sha256:abc").withContainerID("containerd://1")
                .withReady(waitingReason == null).withRestartCount(waitingReason == null ? 0 : 4).withNewState()
                .withNewWaiting().withReason(waitingReason).withMessage("back-off 40s restarting failed container").endWaiting()
                .endState().endContainerStatus()
                .endStatus()
                .build();
    }

    @Test
    void whatStatusSyncReadsOfAKeptPodIsWhatItReadsOfThePod() {
        for (Pod pod : new Pod[] {worker(null), worker("CrashLoopBackOff")}) {
            Pod kept = MemberPodCache.reduced(pod);

            assertThat(PodSnapshot.of(kept)).isEqualTo(PodSnapshot.of(pod));
            assertThat(MemberPod.of("gpu-a", kept)).isEqualTo(MemberPod.of("gpu-a", pod));
            assertThat(MemberPodRow.of("gpu-a", kept)).isEqualTo(MemberPodRow.of("gpu-a", pod));
            assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("42");
        }
        assertThat(MemberPod.of("gpu-a", MemberPodCache.reduced(worker("CrashLoopBackOff"))).orElseThrow().problem()).isPresent();
    }

    @Test
    void aKeptPodIsAFractionOfThePod() {
        Pod pod = worker(null);

        int kept = JSON.asJson(MemberPodCache.reduced(pod)).length();

        assertThat(kept).isLessThan(JSON.asJson(pod).length() / 2);
        assertThat(pod.getSpec().getContainers().get(0).getEnv()).as("the pod given is left as it was").hasSize(2);
    }

    @Test
    void aPodIsKeptByNamespaceAndNameAsTheInformerLooksItUp() {
        MemberPodCache cache = new MemberPodCache();
        Pod pod = worker(null);

        cache.put(cache.getKey(pod), pod);

        assertThat(cache.getKey(pod)).isEqualTo("default/pytorch-test-worker-0");
        assertThat(cache.get("default/pytorch-test-worker-0").getSpec().getContainers()).singleElement()
                .satisfies(container -> assertThat(container.getEnv()).isEmpty());
        assertThat(cache.size()).isEqualTo(1);
        assertThat(cache.remove("default/pytorch-test-worker-0")).isNotNull();
        assertThat(cache.keySet()).isEmpty();
    }
}
