package dev.muster.system;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.json.MusterJson;
import dev.muster.testing.net.LoopbackPorts;

/**
 * A real Prometheus (Debian's {@code prometheus} package, which {@code .ci/run} installs) scraping Muster's services
 * every second, with Muster's alert rules loaded, on a loopback port of its own.
 */
final class PrometheusServer implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    private final String url;

    private PrometheusServer(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** The prometheus binary on this machine, if there is one. */
    static Optional<Path> binary() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)).map(dir -> Path.of(dir, "prometheus"))
                .filter(Files::isExecutable).findFirst();
    }

    /** Starts Prometheus scraping these targets, by job name, with these rule files, and waits until it is ready. */
    static PrometheusServer start(Path binary, Path home, Map<String, String> targets, List<Path> ruleFiles) throws IOException, InterruptedException {
        StringBuilder config = new StringBuilder("global: {scrape_interval: 1s, evaluation_interval: 1s}\nrule_files:\n");
        ruleFiles.forEach(file -> config.append("  - ").append(file.toAbsolutePath()).append('\n'));
        config.append("scrape_configs:\n");
        targets.forEach((job, target) -> config.append("  - job_name: ").append(job).append("\n    metrics_path: /q/metrics\n")
                .append("    static_configs: [{targets: ['").append(target).append("']}]\n"));
        Path file = home.resolve("prometheus.yml");
        Files.writeString(file, config);
        int port = LoopbackPorts.reserve();
        Process process = new ProcessBuilder(binary.toString(), "--config.file=" + file, "--storage.tsdb.path=" + home.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(home.resolve("prometheus.log").toFile()).start();
        PrometheusServer server = new PrometheusServer(process, "http://127.0.0.1:" + port);
        try {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).pollInterval(java.time.Duration.ofMillis(200))
                    .until(() -> server.ready() || !process.isAlive());
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            // not ready within the deadline: said below
        }
        if (!server.ready()) {
            server.close();
            throw new IllegalStateException("Prometheus did not start: " + Files.readString(home.resolve("prometheus.log")));
        }
        return server;
    }

    private boolean ready() {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url + "/-/ready")).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The series an instant query returns now; an error of Prometheus' (a query it cannot parse) is an exception. */
    List<JsonNode> query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = MusterJson.json().readTree(response.body());
        if (!"success".equals(body.path("status").asText())) {
            throw new IllegalArgumentException("Prometheus refused " + promql + ": " + body.path("error").asText());
        }
        return List.copyOf(MusterJson.json().convertValue(body.path("data").path("result"),
                new com.fasterxml.jackson.core.type.TypeReference<List<JsonNode>>() { }));
    }

    /** The rules Prometheus loaded, by name, with their health ({@code ok}, or why not). */
    Map<String, String> ruleHealth() throws IOException, InterruptedException {
        JsonNode body = MusterJson.json().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/rules")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        Map<String, String> health = new java.util.TreeMap<>();
        body.path("data").path("groups").forEach(group -> group.path("rules").forEach(rule ->
                health.put(rule.path("name").asText(), rule.path("health").asText() + " " + rule.path("lastError").asText(""))));
        return health;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
