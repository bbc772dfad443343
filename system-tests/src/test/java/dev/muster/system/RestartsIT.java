package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.muster.local.MusterService;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * What happens while a service is down, or a member half-works, is not lost: status sync killed while jobs finish
 * reports them once it is back (its member watches surviving lists that fail under load), so their quota is released;
 * a member that stops confirming reservations is given up on with an Event naming it and the timeout.
 */
class RestartsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static MusterStack stack;
    private static KubernetesClient fleet;

    @BeforeAll
    static void startMuster() throws Exception {
        stack = MusterStack.start(Path.of("..", "deploy", "local", "fleet.yaml"),
                Map.of(MusterService.PLACEMENT, Map.of("muster.placement.reservation-timeout", "5s")));
        fleet = stack.fleet.connect();
        ElasticQuotaTree tree = Manifests.read(Seed.text(Seed.ELASTIC_QUOTA_TREE).replace("kube-queue/max-jobs: 1 ", "kube-queue/max-jobs: 3 "),
                ElasticQuotaTree.class);
        fleet.resource(tree).create();
        fleet.resource(Seed.queuePolicy("default")).create();
        // Straight to placement, no quota: the namespace is in no leaf of the tree.
        fleet.resource(Manifests.read(Seed.text(Seed.POLICY_GANG).replace("namespace: default", "namespace: reserved"),
                dev.muster.model.policy.PropagationPolicy.class)).create();
    }

    @AfterAll
    static void stopMuster() {
        if (fleet != null) {
            fleet.close();
        }
        if (stack != null) {
            stack.close();
        }
    }

    private static Optional<JobCondition> state(String namespace, String name) {
        PyTorchJob job = fleet.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get();
        return job == null || job.getStatus() == null ? Optional.empty() : job.getStatus().currentCondition();
    }

    @Test
    void jobsThatFinishWhileStatusSyncIsDownAreReportedOnceItIsBackAndTheirQuotaIsReleased() throws Exception {
        List<String> jobs = List.of("finishes-unseen-0", "finishes-unseen-1", "finishes-unseen-2");
        jobs.forEach(name -> fleet.resource(Seed.job("default", name)).create());
        await().atMost(DEADLINE).untilAsserted(() -> jobs.forEach(name ->
                assertThat(state("default", name)).as(name).map(JobCondition::type).contains("Running")));
        fleet.resource(Seed.job("default", "waits-for-quota")).create();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state("default", "waits-for-quota")).map(JobCondition::type).contains("Queuing"));

        // Under load the members fail their first lists after a restart: fabric8's informer stopped for good on one.
        for (String member : List.of("gpu-a", "gpu-b", "gpu-c")) {
            stack.member(member).faults().failLists("pytorchjobs", 3);
        }
        stack.service(MusterService.STATUS_SYNC).kill();
        for (String name : jobs) {
            for (String member : List.of("gpu-a", "gpu-b", "gpu-c")) {
                stack.member(member).completeJob("default", name);
            }
        }

        // The local stack's supervisor starts status sync again; it lists every member and reports what it missed.
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> jobs.forEach(name ->
                assertThat(state("default", name)).as(name + "; logs: %s", stack.logs()).map(JobCondition::type).contains("Succeeded")));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(state("default", "waits-for-quota")).map(JobCondition::type).contains("Running"));
        assertThat(get(stack.url(MusterService.QUEUE) + "/api/v1/queues")).contains("\"resource\":\"kube-queue/max-jobs\",\"used\":\"1\"");
    }

    @Test
    void aMemberThatStopsConfirmingReservationsIsGivenUpOnWithAnEventNamingItAndTheTimeout() throws Exception {
        SimulatedCluster gpuA = stack.member("gpu-a");
        gpuA.faults().stopReservations();
        try {
            // Only gpu-a has nodes with 8 GPUs free and reservations: the gang goes there first.
            PyTorchJob job = fleet.resource(Manifests.read("""
                    apiVersion: kubeflow.org/v1
                    kind: PyTorchJob
                    metadata: {name: eight-gpu-workers, namespace: reserved}
                    spec:
                      pytorchReplicaSpecs:
                        Worker:
                          replicas: 1
                          restartPolicy: OnFailure
                          template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "4", nvidia.com/gpu: "8"}}}]}}
                    """, PyTorchJob.class)).create();

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.v1().events().inNamespace("reserved").list().getItems())
                    .filteredOn(event -> job.getMetadata().getUid().equals(event.getInvolvedObject().getUid()))
                    .extracting(Event::getMessage)
                    .anySatisfy(message -> assertThat(message).isEqualTo("gave up on member cluster gpu-a and released its reservations; trying the"
                            + " next cluster: gpu-a: reservations not confirmed within 5s")));
        } finally {
            gpuA.faults().heal();
        }
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
