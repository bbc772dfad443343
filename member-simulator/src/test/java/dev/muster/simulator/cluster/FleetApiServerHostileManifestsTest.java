package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobValidator;
import dev.muster.model.json.ManifestException;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.model.validation.Violation;
import dev.muster.testing.hostile.HostileManifest;
import dev.muster.testing.hostile.HostileManifests;
import dev.muster.testing.hostile.Verdict;

/**
 * Hostile PyTorchJobs on the fleet API path, created on the fleet API server as {@code kubectl create} sends them: the
 * corpus's cases and {@value #DEFAULT_GENERATED} generated ones (set {@code -Dmuster.test.hostile-cases} for more, and
 * {@code -Dmuster.test.hostile-seed} for another seed), with a good job after every tenth. Each must be refused with a
 * Kubernetes Status that says why (the corpus's cases what they name), or be a valid job after all, created as one the
 * queue admits; the server must answer every one within a few seconds and never with a server error, and every good
 * job must be created. Prints the counts.
 */
class FleetApiServerHostileManifestsTest extends FleetApiServerTests {

    private static final int DEFAULT_GENERATED = 2_000;
    private static final int GENERATED = Integer.getInteger("muster.test.hostile-cases", DEFAULT_GENERATED);
    private static final long SEED = Long.getLong("muster.test.hostile-seed", 20261206L);
    /** A request not answered in this time stalls the server: a liveness bound, not a speed target. */
    private static final Duration STALL = Duration.ofSeconds(5);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(STALL).build();
    private final HostileManifests hostile = new HostileManifests("default");

    @Test
    void everyHostileJobIsRefusedWithItsReasonAndTheGoodJobsBetweenThemAreCreated() throws Exception {
        long start = System.nanoTime();
        List<HostileManifest> corpus = hostile.corpus();
        Iterator<HostileManifest> cases = java.util.stream.Stream.concat(corpus.stream(), hostile.generated(SEED, GENERATED)).iterator();

        Map<String, Integer> counts = new TreeMap<>();
        List<String> mishandled = new ArrayList<>();
        int goodSent = 0;
        List<String> goodLost = new ArrayList<>();
        for (int i = 0; cases.hasNext(); i++) {
            if (i % 10 == 0) {
                HostileManifest good = hostile.good("good-" + goodSent++);
                Verdict verdict = judge(good, "application/json");
                if (!verdict.kind().equals("valid, created")) {
                    goodLost.add(good.name() + ": " + verdict);
                }
            }
            HostileManifest hostileCase = cases.next();
            Verdict verdict = judge(hostileCase, i >= corpus.size() && i % 5 == 4 ? "application/yaml" : "application/json");
            counts.merge(verdict.kind(), 1, Integer::sum);
            verdict.problem().ifPresent(problem -> mishandled.add(hostileCase.name() + " -> " + problem));
        }

        System.out.printf("hostile jobs (fleet API path, seed %d): %d cases, %d from the corpus and %d generated; %s; good jobs created %d/%d;"
                + " in %.1f s%n", SEED, corpus.size() + GENERATED, corpus.size(), GENERATED, counts, goodSent - goodLost.size(), goodSent,
                (System.nanoTime() - start) / 1e9);
        slowest.stream().sorted(Map.Entry.<Long, String>comparingByKey().reversed())
                .forEach(slow -> System.out.println("  slowest answers: " + slow.getKey() + " ms, " + slow.getValue()));
        mishandled.stream().limit(30).forEach(line -> System.out.println("  mishandled: " + line));
        assertThat(mishandled).as("hostile cases mishandled").isEmpty();
        assertThat(goodLost).as("good jobs not created").isEmpty();
    }

    /** Sent as JSON, as kubectl sends it, or one time in five as YAML, which JSON is too and an API server reads. */
    private final java.util.PriorityQueue<Map.Entry<Long, String>> slowest = new java.util.PriorityQueue<>(Map.Entry.comparingByKey());

    private Verdict judge(HostileManifest hostileCase, String contentType) throws InterruptedException {
        long sent = System.nanoTime();
        try {
            return answer(hostileCase, contentType);
        } finally {
            slowest.add(Map.entry((System.nanoTime() - sent) / 1_000_000, hostileCase.body().length + " bytes as " + contentType + ": "
                    + abbreviated(hostileCase.name())));
            if (slowest.size() > 5) {
                slowest.poll();
            }
        }
    }

    private Verdict answer(HostileManifest hostileCase, String contentType) throws InterruptedException {
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(URI.create(server.url() + "/apis/kubeflow.org/v1/namespaces/" + hostileCase.namespace() + "/pytorchjobs"))
                    .timeout(STALL).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(hostileCase.body())).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            return Verdict.mishandled("no answer in " + STALL.toSeconds() + " s");
        } catch (java.io.IOException e) {
            return Verdict.mishandled("the connection failed: " + e);
        }
        int code = response.statusCode();
        if (code >= 500 || code < 200) {
            return Verdict.mishandled("answered " + code + ": " + abbreviated(response.body()));
        }
        if (code < 300) {
            return created(hostileCase, response.body());
        }
        Optional<String> message = statusMessage(response.body());
        if (message.isEmpty() || message.get().isBlank()) {
            return Verdict.mishandled("refused with " + code + " and no message: " + abbreviated(response.body()));
        }
        if (hostileCase.accepted()) {
            return Verdict.mishandled("refused, where the corpus says it is a valid job: " + message.get());
        }
        Optional<String> expected = hostileCase.expect();
        if (expected.isPresent() && !message.get().contains(expected.get())) {
            return Verdict.mishandled("its refusal \"" + abbreviated(message.get()) + "\" does not say \"" + expected.get() + "\"");
        }
        return Verdict.handled("refused " + code + " " + statusReason(response.body()));
    }

    /** A created job must be one the queue admits: the fleet API server stores nothing Muster would refuse. */
    private static Verdict created(HostileManifest hostileCase, String body) {
        if (hostileCase.expect().isPresent()) {
            return Verdict.mishandled("created, where the corpus expects \"" + hostileCase.expect().get() + "\"");
        }
        try {
            List<Violation> violations = PyTorchJobValidator.validate(Manifests.read(body, PyTorchJob.class));
            return violations.isEmpty() ? Verdict.handled("valid, created") : Verdict.mishandled("created a job Muster refuses: " + violations);
        } catch (ManifestException e) {
            return Verdict.mishandled("created a job Muster cannot read: " + e.getMessage());
        }
    }

    private static Optional<String> statusMessage(String body) {
        return status(body).map(status -> status.path("message").asText(""));
    }

    private static String statusReason(String body) {
        return status(body).map(status -> status.path("reason").asText("")).orElse("");
    }

    private static Optional<JsonNode> status(String body) {
        try {
            JsonNode status = MusterJson.fromBytes(body.getBytes(java.nio.charset.StandardCharsets.UTF_8), JsonNode.class);
            return "Status".equals(status.path("kind").asText()) ? Optional.of(status) : Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String abbreviated(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "... (" + text.length() + " characters)" : text;
    }
}
