package dev.muster.simulator.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.simulator.cluster.ClusterSession;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The simulated scheduler, observed only through the cluster's API server. */
class SimulatedSchedulerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @TempDir
    Path kubeconfigs;

    private ClusterSession session;
    private KubernetesClient client;

    private KubernetesClient cluster(String specYaml, String name) throws Exception {
        session = ClusterSession.open(specYaml, kubeconfigs, name);
        client = session.client();
        return client;
    }

    @AfterEach
    void stop() {
        if (session != null) {
            session.close();
        }
    }

    private static final String TWO_CPU_NODES = """
            clusters:
            - name: small
              kubernetesVersion: 1.30.2
              schedulerVersion: 6.8.1
              nodePools:
              - {name: cpu, count: 2, allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
            """;

    private static Pod gangPod(String name, String group, int minAvailable, Map<String, String> limits) {
        Map<String, Quantity> quantities = new java.util.LinkedHashMap<>();
        limits.forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
        return new PodBuilder()
                .withNewMetadata().withName(name).withNamespace("default")
                .addToLabels(GangScheduler.POD_GROUP, group)
                .addToLabels(GangScheduler.MIN_AVAILABLE, String.valueOf(minAvailable)).endMetadata()
                .withNewSpec().addNewContainer().withName("pytorch").withImage("pytorch")
                .withNewResources().withLimits(quantities).endResources().endContainer().endSpec()
                .build();
    }

    private static Optional<PodCondition> scheduled(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? Optional.empty()
                : pod.getStatus().getConditions().stream().filter(condition -> "PodScheduled".equals(condition.getType())).findFirst();
    }

    private List<Pod> pods() {
        return client.pods().inNamespace("default").list().getItems();
    }

    @Test
    void aGangOfThreeThatFitsBindsAllThree() throws Exception {
        cluster(TWO_CPU_NODES, "small");
        for (int i = 0; i < 3; i++) {
            client.pods().resource(gangPod("job-worker-" + i, "job", 3, Map.of("cpu", "2"))).create();
        }

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods()).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getSpec().getNodeName()).startsWith("small-cpu-");
            assertThat(scheduled(pod)).get().extracting(PodCondition::getStatus).isEqualTo("True");
        }));
    }

    @Test
    void aGangThatDoesNotFitStaysPendingWholeWithTheReasonAndBindsNothing() throws Exception {
        cluster(TWO_CPU_NODES, "small");
        for (int i = 0; i < 3; i++) {
            client.pods().resource(gangPod("big-worker-" + i, "big", 3, Map.of("cpu", "3"))).create();
        }

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods()).hasSize(3).allSatisfy(pod -> {
            assertThat(pod.getSpec().getNodeName()).isNull();
            assertThat(scheduled(pod)).get().satisfies(condition -> {
                assertThat(condition.getStatus()).isEqualTo("False");
                assertThat(condition.getReason()).isEqualTo("Unschedulable");
                assertThat(condition.getMessage()).isEqualTo("pod group big of 3 pods cannot be placed together:"
                        + " the gang needs 9 cpu in all, the cluster has 8 free");
            });
        }));
    }

    @Test
    void eightFreeGpusOnEightNodesCannotHostOneEightGpuPod() throws Exception {
        cluster("""
                clusters:
                - name: fragmented
                  kubernetesVersion: 1.30.2
                  schedulerVersion: 6.8.1
                  nodePools:
                  - {name: gpu, count: 8, allocatable: {cpu: "16", memory: 64Gi, nvidia.com/gpu: "1", pods: "110"}}
                """, "fragmented");

        client.pods().resource(gangPod("wide-worker-0", "wide", 1, Map.of("nvidia.com/gpu", "8"))).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods()).singleElement().satisfies(pod -> {
            assertThat(pod.getSpec().getNodeName()).isNull();
            assertThat(scheduled(pod)).get().extracting(PodCondition::getMessage)
                    .isEqualTo("no node has 8 nvidia.com/gpu free for pod wide-worker-0 (largest free: 1 on node fragmented-gpu-0)");
        }));
    }

    @Test
    void aGangWaitsForAllItsPodsBeforeAnyIsBound() throws Exception {
        cluster(TWO_CPU_NODES, "small");
        client.pods().resource(gangPod("late-worker-0", "late", 3, Map.of("cpu", "1"))).create();
        client.pods().resource(gangPod("late-worker-1", "late", 3, Map.of("cpu", "1"))).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods()).allSatisfy(pod -> assertThat(scheduled(pod)).get()
                .extracting(PodCondition::getMessage).isEqualTo("pod group late has 2 of its 3 pods; waiting for the rest before scheduling any")));
        client.pods().resource(gangPod("late-worker-2", "late", 3, Map.of("cpu", "1"))).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods()).hasSize(3)
                .allSatisfy(pod -> assertThat(pod.getSpec().getNodeName()).isNotNull()));
    }
}
