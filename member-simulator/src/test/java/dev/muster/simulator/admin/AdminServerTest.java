package dev.muster.simulator.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.scheduling.GangScheduler;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The admin API switches faults the way a test or an operator would, over HTTP. */
class AdminServerTest {

    @TempDir
    Path kubeconfigs;

    private SimulatedFleet fleet;
    private AdminServer admin;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        fleet = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml")), kubeconfigs);
        admin = AdminServer.start(fleet, 0);
    }

    @AfterEach
    void stop() {
        admin.close();
        fleet.close();
    }

    private HttpResponse<String> call(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(admin.url() + path)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> response) throws Exception {
        return MusterJson.json().readTree(response.body());
    }

    @Test
    void listsEveryClusterWithItsAddressKubeconfigAndFaults() throws Exception {
        HttpResponse<String> response = call("GET", "/clusters");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode clusters = json(response);
        assertThat(clusters).hasSize(2);
        assertThat(clusters.get(0).get("name").asText()).isEqualTo("cluster-a");
        assertThat(clusters.get(0).get("server").asText()).isEqualTo(fleet.cluster("cluster-a").orElseThrow().url());
        assertThat(clusters.get(0).get("kubeconfig").asText()).endsWith("cluster-a.kubeconfig");
        assertThat(clusters.get(0).get("reservation").asBoolean()).isTrue();
        assertThat(clusters.get(1).get("reservation").asBoolean()).isFalse();
        assertThat(clusters.get(0).get("faults").get("unreachable").asBoolean()).isFalse();
    }

    @Test
    void switchesFaultsOnAndHealsThem() throws Exception {
        assertThat(json(call("POST", "/clusters/cluster-b/unreachable")).get("faults").get("unreachable").asBoolean()).isTrue();
        assertThat(json(call("POST", "/clusters/cluster-b/slow?latency=250ms")).get("faults").get("latencyMillis").asLong()).isEqualTo(250);
        JsonNode notReady = json(call("POST", "/clusters/cluster-a/nodes/cluster-a-cpu-1/not-ready"));
        assertThat(notReady.get("faults").get("notReadyNodes")).extracting(JsonNode::asText).containsExactly("cluster-a-cpu-1");

        assertThat(fleet.cluster("cluster-b").orElseThrow().faults().active().unreachable()).isTrue();
        JsonNode healed = json(call("POST", "/clusters/cluster-b/heal"));
        assertThat(healed.get("faults").get("unreachable").asBoolean()).isFalse();
        assertThat(healed.get("faults").get("latencyMillis").asLong()).isZero();
        assertThat(json(call("POST", "/clusters/cluster-a/scheduler/stop")).get("faults").get("schedulerStopped").asBoolean()).isTrue();
        JsonNode healedA = json(call("POST", "/clusters/cluster-a/heal"));
        assertThat(healedA.get("faults").get("notReadyNodes")).isEmpty();
        assertThat(healedA.get("faults").get("schedulerStopped").asBoolean()).isFalse();
    }

    @Test
    void failsARunningPod() throws Exception {
        try (KubernetesClient client = fleet.cluster("cluster-a").orElseThrow().connect()) {
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("victim").withNamespace("default")
                    .endMetadata().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main").withImage("busybox")
                    .endContainer().endSpec().build()).create();
            await().atMost(Duration.ofSeconds(10)).until(() -> "Running".equals(phase(client)));

            assertThat(call("POST", "/clusters/cluster-a/pods/default/victim/fail?exitCode=137").statusCode()).isEqualTo(200);

            await().atMost(Duration.ofSeconds(10)).until(() -> "Failed".equals(phase(client)));
        }
    }

    @Test
    void completesAJobWhereverItsPodsRun() throws Exception {
        PyTorchJob job = Seed.job("default", "finishing");
        job.getMetadata().getLabels().put(GangScheduler.POD_GROUP, "finishing");
        job.getMetadata().getLabels().put(GangScheduler.MIN_AVAILABLE, "3");
        try (KubernetesClient client = fleet.cluster("cluster-b").orElseThrow().connect()) {
            client.resources(PyTorchJob.class).inNamespace("default").resource(job).create();
            await().atMost(Duration.ofSeconds(20)).until(() -> client.pods().inNamespace("default").list().getItems().stream()
                    .filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())).count() == 3);

            HttpResponse<String> response = call("POST", "/jobs/default/finishing/complete");

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(json(response).get("completed").get("cluster-b")).extracting(JsonNode::asText)
                    .containsExactlyInAnyOrder("finishing-master-0", "finishing-worker-0", "finishing-worker-1");
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                PyTorchJob current = client.resources(PyTorchJob.class).inNamespace("default").withName("finishing").get();
                assertThat(current.getStatus()).isNotNull();
                assertThat(current.getStatus().currentCondition()).map(JobCondition::type).contains("Succeeded");
            });
        }
        HttpResponse<String> again = call("POST", "/jobs/default/finishing/complete");
        assertThat(again.statusCode()).isEqualTo(404);
        assertThat(json(again).get("error").asText()).isEqualTo("no member runs a pod of job default/finishing");
    }

    private static String phase(KubernetesClient client) {
        var pod = client.pods().inNamespace("default").withName("victim").get();
        return pod == null || pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    @Test
    void badRequestsSayWhatIsWrongAndChangeNothing() throws Exception {
        Map<String, Integer> expectedStatus = Map.of(
                "/clusters/nowhere/heal", 404,
                "/clusters/cluster-a/nodes/ghost/not-ready", 404,
                "/clusters/cluster-a/pods/default/ghost/fail", 404,
                "/clusters/cluster-a/slow?latency=forever", 400,
                "/clusters/cluster-a/explode", 404);
        for (var entry : expectedStatus.entrySet()) {
            HttpResponse<String> response = call("POST", entry.getKey());
            assertThat(response.statusCode()).as(entry.getKey()).isEqualTo(entry.getValue());
            assertThat(json(response).get("error").asText()).as(entry.getKey()).isNotBlank();
        }
        assertThat(json(call("POST", "/clusters/nowhere/heal")).get("error").asText())
                .isEqualTo("no cluster named nowhere; the fleet has [cluster-a, cluster-b]");
        assertThat(json(call("POST", "/clusters/cluster-a/slow?latency=forever")).get("error").asText())
                .isEqualTo("latency must be a duration such as 2s or 500ms, got \"forever\"");
        assertThat(call("GET", "/clusters/cluster-a/heal").statusCode()).isEqualTo(405);
        assertThat(fleet.cluster("cluster-a").orElseThrow().faults().active())
                .isEqualTo(new dev.muster.simulator.fault.ClusterFaults.Active(false, 0, java.util.Set.of(), false, false, java.util.Map.of()));
    }
}
