package dev.muster.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.local.MusterService;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The dashboard and the alerts read what the services expose: a real Prometheus scrapes the three services of a running
 * Muster while jobs run and a record is dead-lettered, loads the alert rules (each must be healthy), and every query of
 * the Grafana dashboard returns series, as does every alert's query without its threshold. Where Debian's
 * {@code prometheus} is not installed the test is skipped, saying so; CI installs it and sets
 * {@code MUSTER_REQUIRE_PROMETHEUS=true}, which turns the skip into a failure.
 */
class ObservabilityIT {

    private static final Path DASHBOARD = Path.of("..", "deploy", "grafana", "dashboards", "muster.json");
    private static final Path RULES = Path.of("..", "deploy", "prometheus", "muster-rules.yaml");
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    /** An alert's expression: a query, a comparison, a threshold. */
    private static final Pattern THRESHOLD = Pattern.compile("^(.*\\S)\\s*(>|<|>=|<=|==|!=)\\s*-?[0-9.]+$", Pattern.DOTALL);

    @TempDir
    static Path home;
    private static MusterStack stack;
    private static PrometheusServer prometheus;

    @BeforeAll
    static void startPrometheus() throws Exception {
        Optional<Path> binary = PrometheusServer.binary();
        if (binary.isEmpty() && "true".equals(System.getenv("MUSTER_REQUIRE_PROMETHEUS"))) {
            throw new IllegalStateException("no prometheus on the PATH, and MUSTER_REQUIRE_PROMETHEUS is set: install Debian's prometheus");
        }
        Assumptions.assumeTrue(binary.isPresent(), "no prometheus on the PATH: install Debian's prometheus package to run this test");
        stack = SharedStack.get();
        Map<String, String> targets = new LinkedHashMap<>();
        for (MusterService service : List.of(MusterService.QUEUE, MusterService.PLACEMENT, MusterService.STATUS_SYNC)) {
            targets.put(service.artifact(), stack.url(service).replace("http://", ""));
        }
        prometheus = PrometheusServer.start(binary.get(), home, targets, List.of(RULES));
    }

    @AfterAll
    static void stopPrometheusAndDeleteTheJob() throws Exception {
        if (prometheus != null) {
            prometheus.close();
        }
        if (stack != null) {
            stack.deleteJobs("team-a", List.of("observed"));
        }
    }

    @Test
    void everyDashboardQueryAndEveryAlertsQueryReturnsSeriesFromALiveMuster() throws Exception {
        runAJobAndDeadLetterARecord();

        assertThat(prometheus.ruleHealth()).as("the alert rules Prometheus loaded").hasSize(5).allSatisfy((rule, health) ->
                assertThat(health).as(rule).startsWith("ok"));
        List<String> queries = new ArrayList<>(dashboardQueries());
        for (String expression : alertExpressions()) {
            Matcher threshold = THRESHOLD.matcher(expression.trim());
            assertThat(threshold.matches()).as("alert expression %s: a query compared with a threshold", expression).isTrue();
            queries.add(threshold.group(1));
        }
        assertThat(queries).hasSizeGreaterThan(20);
        // Rates need two scrapes of a counter that moved: a few seconds after the job ran.
        await().atMost(DEADLINE).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            List<String> empty = new ArrayList<>();
            for (String query : queries) {
                if (prometheus.query(query).isEmpty()) {
                    empty.add(query);
                }
            }
            assertThat(empty).as("queries that return no series").isEmpty();
        });
        List<JsonNode> deadLetters = prometheus.query("sum by (service, topic) (muster_dead_letters_total)");
        assertThat(deadLetters).anySatisfy(series -> assertThat(series.path("metric").path("topic").asText()).isEqualTo(Topics.SUBMISSIONS));
    }

    @Test
    void oneJobsSpansFromItsSubmissionToRunningAreOneTraceAcrossTheThreeServices() throws Exception {
        runAJobAndDeadLetterARecord();
        String uid;
        try (KubernetesClient fleet = stack.fleet.connect()) {
            uid = fleet.resources(PyTorchJob.class).inNamespace("team-a").withName("observed").get().getMetadata().getUid();
        }

        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            List<OtlpReceiver.ReceivedSpan> spans = SharedStack.traces().spans().stream().filter(span -> uid.equals(span.jobUid())).toList();
            assertThat(spans).extracting(OtlpReceiver.ReceivedSpan::name).as("the job's spans").contains(
                    "queue-service fleet API submitted", "queue-service dev.muster.job.submitted",
                    "placement-service dev.muster.job.admitted", "placement-service member createjob",
                    "placement-service dev.muster.job.member-write-answered", "status-sync-service dev.muster.job.bound",
                    "status-sync-service fleet status Running");
            assertThat(spans).extracting(OtlpReceiver.ReceivedSpan::traceId).as("one trace").containsOnly(spans.get(0).traceId());
            List<String> ids = SharedStack.traces().spans().stream().map(OtlpReceiver.ReceivedSpan::spanId).toList();
            assertThat(spans).filteredOn(span -> span.parentSpanId() == null).extracting(OtlpReceiver.ReceivedSpan::name)
                    .as("the trace's one root: the submission read from the fleet API").containsExactly("queue-service fleet API submitted");
            assertThat(spans).filteredOn(span -> span.parentSpanId() != null).allSatisfy(span ->
                    assertThat(ids).as("%s's parent was exported", span.name()).contains(span.parentSpanId()));
        });
    }

    /** A job through quota, placement and a member to Running, and one record no service can read. */
    private static void runAJobAndDeadLetterARecord() throws Exception {
        Kubectl kubectl = new Kubectl(stack.fleet.kubeconfig());
        kubectl.run("apply", "-f", Path.of("..", "examples", "reclaim", "setup.yaml").toString()).succeeded();
        try (KubernetesClient fleet = stack.fleet.connect(); var kafka = stack.kafkaAsOperator()) {
            PyTorchJob job = Manifests.read(MusterStack.oneMasterJob("team-a", "observed", "cpu: \"1\", nvidia.com/gpu: \"1\""), PyTorchJob.class);
            if (fleet.resources(PyTorchJob.class).inNamespace("team-a").withName("observed").get() == null) {
                fleet.resources(PyTorchJob.class).inNamespace("team-a").resource(job).create();
            }
            kafka.sendRaw(Topics.SUBMISSIONS, "observability", "not an event".getBytes(StandardCharsets.UTF_8));
            await().atMost(DEADLINE).untilAsserted(() -> {
                PyTorchJob running = fleet.resources(PyTorchJob.class).inNamespace("team-a").withName("observed").get();
                assertThat(running.getStatus() == null ? Optional.<JobCondition>empty() : running.getStatus().currentCondition())
                        .map(JobCondition::type).as("logs: %s", stack.logs()).contains("Running");
            });
        }
    }

    private static List<String> dashboardQueries() throws Exception {
        List<String> queries = new ArrayList<>();
        MusterJson.json().readTree(Files.readString(DASHBOARD)).path("panels").forEach(panel ->
                panel.path("targets").forEach(target -> queries.add(target.path("expr").asText())));
        return queries;
    }

    private static List<String> alertExpressions() throws Exception {
        List<String> expressions = new ArrayList<>();
        new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(RULES.toFile())
                .path("groups").forEach(group -> group.path("rules").forEach(rule -> expressions.add(rule.path("expr").asText())));
        return expressions;
    }
}
