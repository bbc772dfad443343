package dev.muster.simulator.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.kubelet.KubeletController;
import dev.muster.simulator.scheduling.GangScheduler;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The simulated training operator, observed only through the cluster's API server. */
class TrainingOperatorTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    @TempDir
    Path kubeconfigs;

    private SimulatedFleet fleet;
    private KubernetesClient client;

    @BeforeEach
    void startCluster() throws Exception {
        fleet = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml")), kubeconfigs);
        client = fleet.cluster("cluster-a").orElseThrow().connect();
    }

    @AfterEach
    void stopCluster() {
        client.close();
        fleet.close();
    }

    /** The seed job as placement will create it on a member: with the gang labels for all three pods. */
    private PyTorchJob seedJobWithGangLabels(String duration) {
        return seedJobWithGangLabels(duration, null);
    }

    private PyTorchJob seedJobWithGangLabels(String duration, String masterExitCode) {
        PyTorchJob job = Seed.job("default", "pytorch-test");
        job.getMetadata().getLabels().put(GangScheduler.POD_GROUP, "pytorch-test");
        job.getMetadata().getLabels().put(GangScheduler.MIN_AVAILABLE, "3");
        if (duration != null) {
            job.getSpec().pytorchReplicaSpecs().values().forEach(replica ->
                    replica.template().getMetadata().setAnnotations(java.util.Map.of(KubeletController.DURATION, duration)));
        }
        if (masterExitCode != null) {
            job.getSpec().pytorchReplicaSpecs().get("Master").template().getMetadata().setAnnotations(
                    java.util.Map.of(KubeletController.DURATION, duration, KubeletController.EXIT_CODE, masterExitCode));
        }
        return job;
    }

    private List<String> conditionTypes() {
        PyTorchJob job = client.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get();
        return job.getStatus() == null ? List.of() : job.getStatus().conditions().stream().map(JobCondition::type).toList();
    }

    private static String env(Pod pod, String name) {
        return pod.getSpec().getContainers().get(0).getEnv().stream().filter(env -> name.equals(env.getName()))
                .map(EnvVar::getValue).findFirst().orElse(null);
    }

    @Test
    void theSeedJobGetsItsThreePodsBoundTogetherAndRuns() {
        client.resources(PyTorchJob.class).inNamespace("default").resource(seedJobWithGangLabels(null)).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(conditionTypes()).contains("Created", "Running"));
        List<Pod> pods = client.pods().inNamespace("default").withLabel(TrainingOperator.JOB_NAME, "pytorch-test").list().getItems();
        assertThat(pods).extracting(pod -> pod.getMetadata().getName())
                .containsExactlyInAnyOrder("pytorch-test-master-0", "pytorch-test-worker-0", "pytorch-test-worker-1");
        assertThat(pods).allSatisfy(pod -> {
            assertThat(pod.getStatus()).isNotNull();
            assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            assertThat(pod.getSpec().getNodeName()).startsWith("cluster-a-cpu-");
            assertThat(pod.getMetadata().getLabels()).containsEntry(GangScheduler.POD_GROUP, "pytorch-test")
                    .containsEntry("app", "pytorchjob");
            assertThat(env(pod, "MASTER_ADDR")).isEqualTo("pytorch-test-master-0");
            assertThat(env(pod, "WORLD_SIZE")).isEqualTo("3");
        });
        Pod worker1 = pods.stream().filter(pod -> pod.getMetadata().getName().endsWith("worker-1")).findFirst().orElseThrow();
        assertThat(worker1.getMetadata().getLabels()).containsEntry(TrainingOperator.REPLICA_TYPE, "worker")
                .containsEntry(TrainingOperator.PYTORCH_REPLICA_INDEX, "1");
        assertThat(env(worker1, "RANK")).isEqualTo("2");
    }

    @Test
    void aJobWhosePodsCompleteSucceeds() {
        client.resources(PyTorchJob.class).inNamespace("default").resource(seedJobWithGangLabels("1s")).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(conditionTypes()).endsWith("Succeeded"));
        PyTorchJob job = client.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get();
        assertThat(job.getStatus().completionTime()).isNotNull();
        assertThat(job.getStatus().replicaStatuses().get("Worker").succeeded()).isEqualTo(2);
    }

    @Test
    void aJobWhoseMasterFailsUnderRestartPolicyNeverFails() {
        // The seed's Master has restartPolicy Never: a non-zero exit fails the pod, and so the job.
        client.resources(PyTorchJob.class).inNamespace("default").resource(seedJobWithGangLabels("1s", "2")).create();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(conditionTypes()).endsWith("Failed"));
        PyTorchJob job = client.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get();
        assertThat(job.getStatus().replicaStatuses().get("Master").failed()).isEqualTo(1);
    }

    @Test
    void theOperatorFollowsEachJobOnItsOwnAndPodsOfADeletedJobGoWithIt() {
        PyTorchJob first = seedJobWithGangLabels(null);
        PyTorchJob second = seedJobWithGangLabels(null);
        second.getMetadata().setName("pytorch-other");
        second.getMetadata().getLabels().put(GangScheduler.POD_GROUP, "pytorch-other");
        client.resources(PyTorchJob.class).inNamespace("default").resource(first).create();
        client.resources(PyTorchJob.class).inNamespace("default").resource(second).create();
        await().atMost(DEADLINE).until(() -> client.pods().inNamespace("default").list().getItems().stream()
                .filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())).count() == 6);

        client.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").delete();

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(client.pods().inNamespace("default").list().getItems())
                .extracting(pod -> pod.getMetadata().getName())
                .containsExactlyInAnyOrder("pytorch-other-master-0", "pytorch-other-worker-0", "pytorch-other-worker-1"));
    }
}
