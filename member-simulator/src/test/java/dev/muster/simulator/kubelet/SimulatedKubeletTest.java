package dev.muster.simulator.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Simulated kubelets, observed only through the cluster's API server: what a user sees with kubectl. */
class SimulatedKubeletTest {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @TempDir
    Path kubeconfigs;

    private SimulatedFleet fleet;
    private KubernetesClient client;

    @BeforeEach
    void startCluster() throws Exception {
        fleet = SimulatedFleet.start(FleetSpec.parse("""
                clusters:
                - name: small
                  kubernetesVersion: 1.30.2
                  schedulerVersion: 6.8.1
                  nodePools:
                  - {name: cpu, count: 1, allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
                """, "test"), kubeconfigs);
        client = fleet.cluster("small").orElseThrow().connect();
    }

    @AfterEach
    void stopCluster() {
        client.close();
        fleet.close();
    }

    private Pod create(String name, String duration) {
        return create(name, duration, null, null);
    }

    private Pod create(String name, String duration, Integer exitCode, String restartPolicy) {
        return create(name, duration, exitCode, restartPolicy, null);
    }

    private Pod create(String name, String duration, Integer exitCode, String restartPolicy, String stopDelay) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withRestartPolicy(restartPolicy).addNewContainer().withName("pytorch").withImage("pytorch")
                .withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("1")).endResources()
                .endContainer().endSpec();
        if (duration != null) {
            pod.editMetadata().addToAnnotations(KubeletController.DURATION, duration).endMetadata();
        }
        if (exitCode != null) {
            pod.editMetadata().addToAnnotations(KubeletController.EXIT_CODE, String.valueOf(exitCode)).endMetadata();
        }
        if (stopDelay != null) {
            pod.editMetadata().addToAnnotations(KubeletController.STOP_DELAY, stopDelay).endMetadata();
        }
        return client.pods().resource(pod.build()).create();
    }

    private Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void aScheduledPodRunsWithItsContainersReady() {
        create("trainer", null);

        await().atMost(DEADLINE).untilAsserted(() -> {
            Pod pod = get("trainer");
            assertThat(pod.getSpec().getNodeName()).isEqualTo("small-cpu-0");
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            assertThat(pod.getStatus().getStartTime()).isNotNull();
            assertThat(pod.getStatus().getConditions()).anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
            assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(container -> {
                assertThat(container.getReady()).isTrue();
                assertThat(container.getState().getRunning()).isNotNull();
            });
        });
    }

    @Test
    void aPodWithADurationSucceedsWhenItsTimeIsUp() {
        // Under restartPolicy Always, the default, even a container that exits 0 is started again.
        create("short", "1s", null, "OnFailure");

        await().atMost(DEADLINE).untilAsserted(() -> {
            Pod pod = get("short");
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(pod.getStatus().getContainerStatuses()).singleElement()
                    .satisfies(container -> assertThat(container.getState().getTerminated().getExitCode()).isZero());
        });
    }

    @Test
    void aContainerThatExitsNonZeroFailsThePodUnderRestartPolicyNever() {
        create("broken", "1s", 3, "Never");

        await().atMost(DEADLINE).untilAsserted(() -> {
            Pod pod = get("broken");
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Failed");
            assertThat(pod.getStatus().getContainerStatuses()).singleElement()
                    .satisfies(container -> assertThat(container.getState().getTerminated().getExitCode()).isEqualTo(3));
        });
    }

    @Test
    void aContainerThatExitsNonZeroRestartsUnderRestartPolicyOnFailure() {
        create("flaky", "500ms", 1, "OnFailure");

        await().atMost(DEADLINE).untilAsserted(() -> {
            Pod pod = get("flaky");
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(container -> {
                assertThat(container.getRestartCount()).isGreaterThanOrEqualTo(1);
                assertThat(container.getLastState().getTerminated().getExitCode()).isEqualTo(1);
            });
        });
    }

    /** As on a real cluster, a deleted pod that runs stays, terminating, until its program has stopped. */
    @Test
    void aDeletedRunningPodTerminatesUntilItsProgramHasStoppedThenIsGone() {
        create("stopping", null, null, null, "2s");
        await().atMost(DEADLINE).until(() -> "Running".equals(get("stopping").getStatus().getPhase()));

        client.pods().inNamespace("default").withName("stopping").delete();

        assertThat(get("stopping")).as("still there, terminating").isNotNull().satisfies(terminating -> {
            assertThat(terminating.getMetadata().getDeletionTimestamp()).isNotNull();
            assertThat(terminating.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);
        });
        await().atMost(DEADLINE).until(() -> get("stopping") == null);
    }

    @Test
    void aProgramThatOutlastsItsGracePeriodIsKilledAtIt() {
        create("stubborn", null, null, null, "1h");
        await().atMost(DEADLINE).until(() -> "Running".equals(get("stubborn").getStatus().getPhase()));

        client.pods().inNamespace("default").withName("stubborn").withGracePeriod(1).delete();

        assertThat(get("stubborn").getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(1L);
        await().atMost(DEADLINE).until(() -> get("stubborn") == null);
    }

    @Test
    void aPodOnNoNodeOrDeletedWithNoGraceIsGoneAtOnce() {
        Pod pending = client.pods().resource(new PodBuilder().withNewMetadata().withName("nowhere").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("pytorch").withImage("pytorch").withNewResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("64")).endResources().endContainer().endSpec().build()).create();
        create("forced", null);
        await().atMost(DEADLINE).until(() -> "Running".equals(get("forced").getStatus().getPhase()));

        client.pods().resource(pending).delete();
        client.pods().inNamespace("default").withName("forced").withGracePeriod(0).delete();

        assertThat(get("nowhere")).isNull();
        assertThat(get("forced")).isNull();
    }
}
