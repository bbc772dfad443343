package dev.muster.placement.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.muster.fleetclient.ThrottledTokenRefresh;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.reservation.Reservation;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.testing.SimulatedMembersTestResource.InjectSimulatedMembers;
import dev.muster.simulator.testing.SimulatedMembersTestResource;
import dev.muster.simulator.training.TrainingOperator;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceProcess;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * Placement end to end: the default local fleet of simulated members ({@code deploy/local/fleet.yaml}), their
 * inventory reported by the packaged status-sync service, and admissions sent to a real broker.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@WithTestResource(KafkaBrokerTestResource.class)
@WithTestResource(value = SimulatedMembersTestResource.class, initArgs = {
        @ResourceArg(name = SimulatedMembersTestResource.SPEC, value = "../deploy/local/fleet.yaml"),
        @ResourceArg(name = SimulatedMembersTestResource.PREFIX, value = "muster.placement.members"),
        @ResourceArg(name = "muster.placement.reservation-timeout", value = "3s"),
        // gpu-b as a member whose nodes Muster could not see: the seed's estimate decides for it.
        @ResourceArg(name = "muster.placement.members.gpu-b.fit-mode", value = "SUM_ESTIMATE")})
class PlacementOverSimulatedMembersTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static ServiceProcess statusSync;

    @InjectKafkaBroker
    KafkaBroker broker;

    @InjectSimulatedMembers
    SimulatedFleet members;

    /** The fleet API server, where the ConfigMaps and Secrets a job propagates live. */
    @jakarta.inject.Inject
    KubernetesClient fleet;

    @BeforeEach
    void startStatusSync() throws Exception {
        if (statusSync != null) {
            return;
        }
        Map<String, String> properties = new HashMap<>();
        properties.put("kafka.bootstrap.servers", broker.bootstrapServers());
        properties.put("muster.status-sync.health-interval", "1s");
        properties.putAll(members.memberSettings("muster.status-sync.members"));
        statusSync = ServiceProcess.start(Path.of("..", "status-sync-service", "target", "quarkus-app", "quarkus-run.jar"), properties,
                Duration.ofSeconds(60));
    }

    @AfterAll
    static void stopStatusSync() throws Exception {
        if (statusSync != null) {
            statusSync.close();
            statusSync = null;
        }
    }

    private JobEvent admit(JobEventClient client, PyTorchJob job) {
        return admit(client, job, null);
    }

    private JobEvent admit(JobEventClient client, PyTorchJob job, dev.muster.model.policy.PropagationPolicy policy) {
        JobRef ref = new JobRef(job.getMetadata().getNamespace(), job.getMetadata().getName(), UUID.randomUUID().toString());
        job.getMetadata().setUid(ref.uid());
        JobEvent admitted = JobEvent.create("/muster/queue-service", ref, Instant.now(), new JobAdmitted(job, policy, null, JobDemand.of(job).total()));
        client.send(Topics.ADMISSIONS, admitted);
        return admitted;
    }

    private static JobBound awaitBound(JobEventClient client, JobEvent admitted) {
        return (JobBound) client.await(Topics.PLACEMENTS, event -> event.job().equals(admitted.job()) && event.data() instanceof JobBound,
                DEADLINE).data();
    }

    @Test
    void theFleetClientReadsItsTokenAgainAtMostOnceAMinuteNotBeforeEveryRequest() {
        assertThat(fleet.getConfiguration().getOauthTokenProvider()).isInstanceOf(ThrottledTokenRefresh.class);
    }

    @Test
    void theSeedJobLandsWholeOnOneClusterThroughItsReservations() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent admitted = admit(client, Seed.job("default", "pytorch-test"));

            JobBound bound = awaitBound(client, admitted);

            // CPU-only pods break no GPU node, and gpu-c's CPU nodes are the emptiest: it wins, with reservations.
            assertThat(bound.cluster()).isEqualTo("gpu-c");
            assertThat(bound.message()).isEqualTo("Binding has been scheduled successfully. Result: {gpu-c:0,[{master 1} {worker 2}]}");
            assertThat(bound.reservation()).startsWith("pytorch-test-");
            try (KubernetesClient member = members.cluster("gpu-c").orElseThrow().connect()) {
                PyTorchJob copy = member.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get();
                assertThat(MemberJobs.isOwnedBy(copy, admitted.job().uid())).isTrue();
                await().atMost(DEADLINE).untilAsserted(() -> {
                    List<Pod> pods = member.pods().inNamespace("default").withLabel(TrainingOperator.JOB_NAME, "pytorch-test").list().getItems();
                    assertThat(pods).hasSize(3).allSatisfy(pod -> assertThat(pod.getStatus()).isNotNull().extracting(status -> status.getPhase()).isEqualTo("Running"));
                });
                assertThat(member.resources(Reservation.class).list().getItems())
                        .filteredOn(reservation -> reservation.getMetadata().getName().startsWith(bound.reservation()))
                        .hasSize(3).allSatisfy(reservation -> assertThat(reservation.phase()).isEqualTo(Reservation.SUCCEEDED));
            }
            String metrics = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
            assertThat(metrics).contains("muster_placement_attempts_total{cluster=\"gpu-c\"}")
                    .contains("muster_placement_reservations_total{outcome=\"confirmed\"}")
                    .contains("muster_placement_latency_seconds_count")
                    .containsPattern("muster_placement_free_gpu\\{cluster=\"gpu-b\"\\} 48");
            for (String other : List.of("gpu-a", "gpu-b")) {
                try (KubernetesClient member = members.cluster(other).orElseThrow().connect()) {
                    assertThat(member.resources(PyTorchJob.class).inNamespace("default").withName("pytorch-test").get()).as(other).isNull();
                }
            }
        }
    }

    /**
     * Quota preempted a running job: it is stopped whole on its member (copy, pods, reservations), and reported stopped
     * only once the member shows nothing of it, its pods having taken their time to stop.
     */
    @Test
    void aPreemptedJobIsStoppedWholeOnItsMemberAndReportedStoppedOnlyOnceNothingOfItIsLeft() throws Exception {
        PyTorchJob job = Seed.job("default", "borrower");
        job.getSpec().pytorchReplicaSpecs().values().forEach(replica -> replica.template().getMetadata()
                .setAnnotations(Map.of(dev.muster.simulator.kubelet.KubeletController.STOP_DELAY, "2s")));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent admitted = admit(client, job);
            JobBound bound = awaitBound(client, admitted);
            try (KubernetesClient member = members.cluster(bound.cluster()).orElseThrow().connect()) {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(member.pods().inNamespace("default")
                        .withLabel(MemberJobs.FLEET_JOB_UID, admitted.job().uid()).list().getItems()).hasSize(3)
                        .allSatisfy(pod -> assertThat(pod.getStatus()).isNotNull().extracting(status -> status.getPhase()).isEqualTo("Running")));

                client.send(Topics.ADMISSIONS, admitted.followUp("/muster/queue-service", admitted.job(), Instant.now(),
                        new dev.muster.model.event.JobPreempted("team-b/guaranteed", "uid-guaranteed", "preempted to return borrowed capacity")));

                JobEvent stopped = client.await(Topics.PLACEMENTS, event -> event.job().equals(admitted.job())
                        && event.data() instanceof dev.muster.model.event.JobEvicted, DEADLINE);
                assertThat(member.pods().inNamespace("default").withLabel(MemberJobs.FLEET_JOB_UID, admitted.job().uid()).list().getItems())
                        .as("no pod left, terminating or not").isEmpty();
                assertThat(member.resources(PyTorchJob.class).inNamespace("default").withName("borrower").get()).isNull();
                assertThat(member.resources(Reservation.class).withLabel(MemberJobs.FLEET_JOB_UID, admitted.job().uid()).list().getItems()).isEmpty();
                assertThat(((dev.muster.model.event.JobEvicted) stopped.data()).message())
                        .startsWith("stopped on member cluster " + bound.cluster() + " for team-b/guaranteed: deleted its member copy, 3 pods, 3 reservations,"
                                + " all gone after ");
            }
        }
    }

    /** One CPU master and two workers of 8 GPUs each. */
    private static PyTorchJob eightGpuWorkers(String name) {
        PyTorchJob job = dev.muster.placement.core.Fleets.job(name, 2, "8");
        job.getMetadata().setUid(null);
        return job;
    }

    @Test
    void eightGpuWorkersGoWhereANodeHoldsThemNotWhereTheMostGpusAre() throws Exception {
        PyTorchJob job = eightGpuWorkers("big-train");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobBound bound = awaitBound(client, admit(client, job));

            // gpu-b has 48 free GPUs but 4 per node at most; gpu-c's 8-GPU nodes are tainted for other pods.
            assertThat(bound.cluster()).isEqualTo("gpu-a");
            try (KubernetesClient member = members.cluster("gpu-a").orElseThrow().connect()) {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(member.pods().inNamespace("default")
                        .withLabel(TrainingOperator.JOB_NAME, "big-train").list().getItems()).hasSize(3)
                        .allSatisfy(pod -> assertThat(pod.getStatus()).isNotNull().extracting(status -> status.getPhase()).isEqualTo("Running")));
            }
        }
    }

    @Test
    void reservationsAMemberDoesNotConfirmAreReleasedAndTheNextClusterTakesTheJob() throws Exception {
        SimulatedCluster gpuC = members.cluster("gpu-c").orElseThrow();
        gpuC.faults().stopScheduler();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient memberC = gpuC.connect()) {
            JobEvent admitted = admit(client, Seed.job("default", "unconfirmed"));

            JobBound bound = awaitBound(client, admitted);

            assertThat(client.readAll(Topics.PLACEMENTS)).filteredOn(event -> event.job().equals(admitted.job()))
                    .filteredOn(event -> event.data() instanceof PlacementAttempted)
                    .extracting(event -> ((PlacementAttempted) event.data()).cluster()).containsExactly("gpu-c", bound.cluster());
            assertThat(bound.cluster()).isNotEqualTo("gpu-c");
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(memberC.resources(Reservation.class).list().getItems())
                    .as("released on gpu-c").noneMatch(reservation -> reservation.getMetadata().getName().startsWith("unconfirmed-")));
            assertThat(memberC.resources(PyTorchJob.class).inNamespace("default").withName("unconfirmed").get()).isNull();
        } finally {
            gpuC.faults().heal();
        }
    }

    @Test
    void underPropagateDepsTheConfigMapsAndSecretsThePodsNeedAreCopiedToTheMemberFirst() throws Exception {
        fleet.configMaps().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata()
                .withName("train-config").withNamespace("default").endMetadata().addToData("lr", "0.01").build()).create();
        fleet.secrets().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata()
                .withName("s3-credentials").withNamespace("default").endMetadata().addToStringData("key", "secret").build()).create();
        dev.muster.model.policy.PropagationPolicy policy = Manifests.read(Seed.text(Seed.POLICY_GANG), dev.muster.model.policy.PropagationPolicy.class);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobBound bound = awaitBound(client, admit(client, withDependencies("with-deps", "train-config"), policy));

            try (KubernetesClient member = members.cluster(bound.cluster()).orElseThrow().connect()) {
                assertThat(member.configMaps().inNamespace("default").withName("train-config").get().getData()).containsEntry("lr", "0.01");
                assertThat(member.secrets().inNamespace("default").withName("s3-credentials").get()).isNotNull();
            }

            JobEvent missing = admit(client, withDependencies("missing-deps", "no-such-config"), policy);
            JobEvent failed = client.await(Topics.PLACEMENTS, event -> event.job().equals(missing.job())
                    && event.data() instanceof dev.muster.model.event.PlacementFailed placementFailed
                    && placementFailed.clusterReasons().values().stream().anyMatch(reason -> reason.contains("no-such-config")), DEADLINE);
            assertThat(((dev.muster.model.event.PlacementFailed) failed.data()).clusterReasons()).containsValue(
                    "creating the job failed: ConfigMap default/no-such-config that the job references does not exist on the fleet (propagateDeps is true)");
        }
    }

    /** The seed job whose pods mount a ConfigMap and read a Secret into their environment. */
    private static PyTorchJob withDependencies(String name, String configMap) {
        String manifest = Seed.text(Seed.PYTORCH_JOB).replace("name: pytorch-test", "name: " + name);
        PyTorchJob job = Manifests.read(manifest, PyTorchJob.class);
        job.getMetadata().setNamespace("default");
        job.getSpec().pytorchReplicaSpecs().values().forEach(replica -> {
            var spec = replica.template().getSpec();
            spec.getVolumes().add(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("config").withNewConfigMap().withName(configMap)
                    .endConfigMap().build());
            spec.getContainers().get(0).getEnvFrom().add(new io.fabric8.kubernetes.api.model.EnvFromSourceBuilder().withNewSecretRef()
                    .withName("s3-credentials").endSecretRef().build());
        });
        return job;
    }

    private static dev.muster.model.policy.PropagationPolicy pinnedTo(String cluster) {
        return Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: only-%s, namespace: default}
                spec:
                  placement:
                    clusterAffinity: {clusterNames: [%s]}
                """.formatted(cluster, cluster), dev.muster.model.policy.PropagationPolicy.class);
    }

    @Test
    void aSlowMemberHoldsUpOnlyTheJobsBeingWrittenToIt() throws Exception {
        SimulatedCluster gpuB = members.cluster("gpu-b").orElseThrow();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            gpuB.faults().slow(Duration.ofSeconds(4));
            // Named so that their writes fall in different lanes of the default eight (a job's name picks its lane).
            JobEvent onSlow = admit(client, Seed.job("default", "on-slow-member"), pinnedTo("gpu-b"));
            client.await(Topics.PLACEMENTS, event -> event.job().equals(onSlow.job()) && event.data() instanceof PlacementAttempted, DEADLINE);

            JobEvent elsewhere = admit(client, Seed.job("default", "elsewhere"), pinnedTo("gpu-a"));

            assertThat(awaitBound(client, elsewhere).cluster()).isEqualTo("gpu-a");
            assertThat(client.readAll(Topics.PLACEMENTS)).as("the copy on the slow member is still being created")
                    .noneMatch(event -> event.job().equals(onSlow.job()) && event.data() instanceof JobBound);
            gpuB.faults().heal();
            assertThat(awaitBound(client, onSlow).cluster()).isEqualTo("gpu-b");
        } finally {
            gpuB.faults().heal();
        }
    }

    @Test
    void theSeedsSumEstimateBindsAJobWhereNoNodeCanRunItsWorkersTheModesKnownLimit() throws Exception {
        dev.muster.model.policy.PropagationPolicy onlyGpuB = Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: only-gpu-b, namespace: default}
                spec:
                  placement:
                    clusterAffinity: {clusterNames: [gpu-b]}
                """, dev.muster.model.policy.PropagationPolicy.class);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobBound bound = awaitBound(client, admit(client, eightGpuWorkers("estimated"), onlyGpuB));

            // 48 free GPUs in all on gpu-b, so the estimate binds the job there; no node has 8, so its workers never run.
            assertThat(bound.cluster()).isEqualTo("gpu-b");
            try (KubernetesClient member = members.cluster("gpu-b").orElseThrow().connect()) {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(member.pods().inNamespace("default")
                        .withLabel(TrainingOperator.JOB_NAME, "estimated").list().getItems()).hasSize(3).allSatisfy(pod -> {
                            assertThat(pod.getSpec().getNodeName()).isNull();
                            // A pod just created has no status yet: awaited like the rest, not a failure at once.
                            assertThat(pod.getStatus()).isNotNull();
                            assertThat(pod.getStatus().getConditions()).anySatisfy(condition ->
                                    assertThat(condition.getMessage()).contains("no node has 8 nvidia.com/gpu free"));
                        }));
            }
        }
    }
}
