package dev.muster.simulator.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.simulator.training.TrainingOperator;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/** Each fault of a simulated cluster, observed the way a client of a real cluster would observe it. */
class ClusterFaultsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(15);

    /** At 300 times real speed the node lifecycle controller's five minutes before eviction take one second. */
    private static final String FLEET = """
            timeSpeed: 300
            clusters:
            - name: faulty
              kubernetesVersion: 1.30.2
              schedulerVersion: 6.8.1
              nodePools:
              - {name: cpu, count: 2, allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
            """;

    @TempDir
    Path kubeconfigs;

    private SimulatedFleet fleet;
    private SimulatedCluster cluster;
    private KubernetesClient client;

    @BeforeEach
    void start() throws Exception {
        fleet = SimulatedFleet.start(FleetSpec.parse(FLEET, "test"), kubeconfigs);
        cluster = fleet.cluster("faulty").orElseThrow();
        client = cluster.connect();
    }

    @AfterEach
    void stop() {
        client.close();
        fleet.close();
    }

    private Pod runningPod(String name, String restartPolicy) {
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewSpec().withRestartPolicy(restartPolicy).addNewContainer().withName("main").withImage("busybox")
                .withNewResources().withRequests(Map.of("cpu", new Quantity("1"))).endResources().endContainer().endSpec().build()).create();
        try { await().atMost(DEADLINE).until(() -> "Running".equals(phase(name))); } catch (RuntimeException e) { throw new AssertionError(String.valueOf(pod(name)), e); }
        return pod(name);
    }

    private Pod pod(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    private String phase(String name) {
        Pod pod = pod(name);
        return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    private static String condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(condition -> type.equals(condition.getType()))
                .map(PodCondition::getStatus).findFirst().orElse(null);
    }

    private static NodeCondition ready(Node node) {
        return node.getStatus().getConditions().stream().filter(condition -> "Ready".equals(condition.getType())).findFirst().orElseThrow();
    }

    @Test
    void anUnreachableApiRefusesConnectionsWhileTheClusterCarriesOnAndHealingRestoresIt() throws Exception {
        cluster.faults().unreachable();

        // A client that does not retry, so the refusal shows at once.
        Config once = new ConfigBuilder(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).withRequestRetryBackoffLimit(0).build();
        try (KubernetesClient impatient = new KubernetesClientBuilder().withConfig(once).build()) {
            assertThatThrownBy(() -> impatient.nodes().list())
                    .isInstanceOf(KubernetesClientException.class)
                    .hasRootCauseInstanceOf(ConnectException.class);
        }
        // The control plane itself still works: a pod created inside the cluster meanwhile gets scheduled and runs.
        cluster.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("during-outage")
                .withNamespace("default").endMetadata().withNewSpec().addNewContainer().withName("main").withImage("busybox")
                .endContainer().endSpec().build()).create();

        cluster.faults().heal();
        await().atMost(DEADLINE).until(() -> "Running".equals(phase("during-outage")));
        assertThat(client.nodes().list().getItems()).hasSize(2);
    }

    @Test
    void anInformerCutOffWhileAnObjectIsDeletedLosesItOnceTheApiIsBack() throws Exception {
        runningPod("doomed", "Always");
        SharedIndexInformer<Pod> pods = client.pods().inNamespace("default").inform();
        try {
            await().atMost(DEADLINE).until(() -> pods.getStore().getByKey("default/doomed") != null);
            cluster.faults().unreachable();
            // The informer's watch is cut; the pod goes meanwhile, and the cluster also makes one.
            cluster.client().pods().inNamespace("default").withName("doomed").delete();
            cluster.client().pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("born-in-outage")
                    .withNamespace("default").endMetadata().withNewSpec().addNewContainer().withName("main").withImage("busybox")
                    .endContainer().endSpec().build()).create();

            cluster.faults().heal();

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(pods.getStore().getByKey("default/doomed")).as("deleted during the outage").isNull();
                assertThat(pods.getStore().getByKey("default/born-in-outage")).as("made during the outage").isNotNull();
            });
        } finally {
            pods.close();
        }
    }

    @Test
    void aSlowApiAnswersOnlyAfterTheLatency() {
        cluster.faults().slow(Duration.ofMillis(400));
        long started = System.nanoTime();
        assertThat(client.nodes().list().getItems()).hasSize(2);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(cluster.faults().active().latencyMillis()).isEqualTo(400);

        cluster.faults().heal();
        assertThat(cluster.faults().active().latencyMillis()).isZero();
    }

    @Test
    void aNotReadyNodeIsTaintedItsPodsTurnNotReadyAndNothingNewLandsOnIt() {
        Pod pod = runningPod("steady", "Always");
        String node = pod.getSpec().getNodeName();

        cluster.faults().nodeNotReady(node);

        await().atMost(DEADLINE).untilAsserted(() -> {
            Node observed = client.nodes().withName(node).get();
            assertThat(ready(observed).getStatus()).isEqualTo("Unknown");
            assertThat(ready(observed).getReason()).isEqualTo("NodeStatusUnknown");
            assertThat(observed.getSpec().getTaints()).extracting(taint -> taint.getKey() + ":" + taint.getEffect())
                    .contains(ClusterFaults.UNREACHABLE_TAINT + ":NoSchedule", ClusterFaults.UNREACHABLE_TAINT + ":NoExecute");
            assertThat(condition(pod("steady"), "Ready")).isEqualTo("False");
        });
        Pod newcomer = runningPod("newcomer", "Always");
        assertThat(newcomer.getSpec().getNodeName()).isNotEqualTo(node);
    }

    @Test
    void podsOnANodeThatStaysNotReadyAreEvictedAndTheTrainingOperatorMakesThemAgainElsewhere() {
        PyTorchJob job = Seed.job("default", "pytorch-test");
        client.resources(PyTorchJob.class).inNamespace("default").resource(job).create();
        await().atMost(DEADLINE).until(() -> client.pods().inNamespace("default").withLabel(TrainingOperator.JOB_NAME, "pytorch-test")
                .list().getItems().stream().filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())).count() == 3);
        String node = pod("pytorch-test-master-0").getSpec().getNodeName();
        String oldUid = pod("pytorch-test-master-0").getMetadata().getUid();

        cluster.faults().nodeNotReady(node);

        await().atMost(DEADLINE).untilAsserted(() -> {
            Pod master = pod("pytorch-test-master-0");
            assertThat(master).isNotNull();
            assertThat(master.getMetadata().getUid()).isNotEqualTo(oldUid);
            assertThat(master.getSpec().getNodeName()).isNotNull().isNotEqualTo(node);
            assertThat(master.getStatus()).isNotNull();
            assertThat(master.getStatus().getPhase()).isEqualTo("Running");
        });
    }

    @Test
    void healingTheNodeMakesItReadyAgainAndItsPodsReady() {
        Pod pod = runningPod("steady", "Always");
        String node = pod.getSpec().getNodeName();
        cluster.faults().slow(Duration.ZERO);
        cluster.faults().nodeNotReady(node);
        assertThat(cluster.faults().active().notReadyNodes()).containsExactly(node);

        cluster.faults().nodeReady(node);

        await().atMost(DEADLINE).untilAsserted(() -> {
            Node observed = client.nodes().withName(node).get();
            assertThat(ready(observed).getStatus()).isEqualTo("True");
            assertThat(observed.getSpec().getTaints()).noneMatch(taint -> ClusterFaults.UNREACHABLE_TAINT.equals(taint.getKey()));
            assertThat(condition(pod("steady"), "Ready")).isEqualTo("True");
        });
        assertThat(cluster.faults().active().notReadyNodes()).isEmpty();
    }

    @Test
    void aFailedPodRestartsUnderOnFailureAndFailsUnderNever() {
        runningPod("resilient", "OnFailure");
        runningPod("fragile", "Never");

        cluster.faults().failPod("default", "resilient", 137);
        cluster.faults().failPod("default", "fragile", 137);

        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(pod("resilient").getStatus()).isNotNull();
            assertThat(pod("resilient").getStatus().getPhase()).isEqualTo("Running");
            assertThat(pod("resilient").getStatus().getContainerStatuses()).singleElement().satisfies(container -> {
                assertThat(container.getRestartCount()).isEqualTo(1);
                assertThat(container.getLastState().getTerminated().getExitCode()).isEqualTo(137);
            });
            assertThat(pod("fragile").getStatus()).isNotNull();
            assertThat(pod("fragile").getStatus().getPhase()).isEqualTo("Failed");
            assertThat(pod("fragile").getStatus().getContainerStatuses()).singleElement()
                    .extracting(container -> container.getState().getTerminated().getExitCode()).isEqualTo(137);
        });
    }

    @Test
    void faultsNameWhatDoesNotExist() {
        assertThatThrownBy(() -> cluster.faults().nodeNotReady("no-such-node"))
                .isInstanceOf(NoSuchElementException.class).hasMessage("cluster faulty has no node no-such-node");
        assertThatThrownBy(() -> cluster.faults().failPod("default", "ghost", 1))
                .isInstanceOf(NoSuchElementException.class).hasMessage("cluster faulty has no running pod default/ghost");
    }

    @Test
    void aWorkerKilledUnderRestartPolicyExitCodeRestartsTheJob() {
        // The seed's Worker, with Kubeflow's ExitCode policy instead of OnFailure.
        PyTorchJob job = Manifests.read(Seed.text(Seed.PYTORCH_JOB).replace("restartPolicy: OnFailure", "restartPolicy: ExitCode"), PyTorchJob.class);
        job.getMetadata().setName("exit-code");
        job.getMetadata().setNamespace("default");
        client.resources(PyTorchJob.class).inNamespace("default").resource(job).create();
        await().atMost(DEADLINE).until(() -> conditionTypes("exit-code").contains("Running"));
        String oldUid = pod("exit-code-worker-0").getMetadata().getUid();

        cluster.faults().failPod("default", "exit-code-worker-0", 137);

        await().atMost(DEADLINE).untilAsserted(() -> {
            PyTorchJob observed = client.resources(PyTorchJob.class).inNamespace("default").withName("exit-code").get();
            assertThat(observed.getStatus().conditions()).filteredOn(condition -> "Restarting".equals(condition.type()))
                    .singleElement().extracting(JobCondition::reason).isEqualTo("PyTorchJobRestarting");
            assertThat(observed.getStatus().conditions()).filteredOn(condition -> "True".equals(condition.status()))
                    .extracting(JobCondition::type).containsExactly("Created", "Running");
            assertThat(pod("exit-code-worker-0").getMetadata().getUid()).isNotEqualTo(oldUid);
        });
    }

    private List<String> conditionTypes(String name) {
        PyTorchJob job = client.resources(PyTorchJob.class).inNamespace("default").withName(name).get();
        return job == null || job.getStatus() == null ? List.of() : job.getStatus().conditions().stream().map(JobCondition::type).toList();
    }

    @Test
    void aStoppedSchedulerLeavesNewPodsPendingUntilItRunsAgain() {
        cluster.faults().stopScheduler();
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("waits").withNamespace("default").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("busybox").endContainer().endSpec().build()).create();
        assertThat(cluster.faults().active().schedulerStopped()).isTrue();
        // A running scheduler binds a pod within milliseconds here; this one stays unbound for a whole second.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> pod("waits").getSpec().getNodeName() == null);

        cluster.faults().heal();

        await().atMost(DEADLINE).until(() -> "Running".equals(phase("waits")));
    }
}
