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
    void itsHelpSaysWhatItTakesAndACommandLineItDoesNotUnderstandExits64(@TempDir Path members) throws Exception {
        Path output = members.resolve("out.txt");
        Process help = simulator(output, "--help");
        assertThat(help.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(help.exitValue()).isZero();
        assertThat(Files.readString(output)).contains("Usage: muster-simulator", "--spec=FILE", "--kubeconfigs=DIR", "--exit-with-parent");

        Process wrong = simulator(output, "--spec", "x.yaml", "--kubeconfigs", members.toString(), "--colour");
        assertThat(wrong.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(wrong.exitValue()).isEqualTo(64);
        assertThat(Files.readString(output)).contains("muster-simulator: Unknown option: '--colour'", "Usage: muster-simulator");
    }

    private static Process simulator(Path output, String... args) throws java.io.IOException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", Path.of("target", "member-simulator.jar").toString()));
        command.addAll(java.util.List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

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
