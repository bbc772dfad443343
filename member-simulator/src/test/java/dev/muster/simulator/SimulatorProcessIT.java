package dev.muster.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/** The packaged simulator, run as `muster up` runs it: a process that serves the spec's clusters and its admin API. */
class SimulatorProcessIT {

    @Test
    void servesTheDefaultFleetUntilStopped(@TempDir Path members) throws Exception {
        Path jar = Path.of("target", "member-simulator.jar");
        Path log = members.resolve("simulator.log");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", jar.toString(),
                "--spec", Path.of("..", "deploy", "local", "fleet.yaml").toString(), "--kubeconfigs", members.toString(), "--exit-with-parent")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(60)).failFast("the simulator exited", () -> !process.isAlive())
                    .until(() -> Files.readString(log).contains("muster-simulator ready"));
            assertThat(Files.readString(log)).contains("clusters [gpu-a, gpu-b, gpu-c]");

            JsonNode endpoints = MusterJson.json().readTree(members.resolve("simulator.json").toFile());
            String kubeconfig = endpoints.get("clusters").get("gpu-a").get("kubeconfig").asText();
            try (KubernetesClient gpuA = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)))).build()) {
                assertThat(gpuA.nodes().list().getItems()).hasSize(4);
            }
            HttpResponse<String> clusters = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoints.get("admin").asText() + "/clusters")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(clusters.statusCode()).isEqualTo(200);
            assertThat(MusterJson.json().readTree(clusters.body())).hasSize(3);
        } finally {
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        }
    }
}
