package dev.muster.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;

/**
 * Muster's alerts and dashboard: the rules pass {@code promtool check rules} and their unit tests ({@code promtool test
 * rules}), and the chart ships the same rules and dashboard it keeps in {@code deploy/prometheus} and
 * {@code deploy/grafana}. That every query returns series from a live Muster is {@code ObservabilityIT}'s.
 */
class MonitoringTest {

    private static final Path RULES = Path.of("prometheus", "muster-rules.yaml");
    private static final Path DASHBOARD = Path.of("grafana", "dashboards", "muster.json");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theChartShipsTheRulesAndTheDashboardKeptBesideIt() throws IOException {
        assertThat(RenderedChart.CHART.resolve("files").resolve("muster-rules.yaml")).as("copy deploy/prometheus/muster-rules.yaml into the chart")
                .hasSameTextualContentAs(RULES);
        assertThat(RenderedChart.CHART.resolve("files").resolve("muster-dashboard.json")).as("copy deploy/grafana/dashboards/muster.json into the chart")
                .hasSameTextualContentAs(DASHBOARD);
    }

    @Test
    void withMonitoringOnTheChartMakesAServiceMonitorThePrometheusRuleAndTheDashboard() throws IOException {
        RenderedChart chart = RenderedChart.render(Map.of("monitoring.serviceMonitor.enabled", true, "monitoring.prometheusRule.enabled", true,
                "monitoring.grafanaDashboard.enabled", true));

        ServiceMonitor monitor = chart.named(ServiceMonitor.class, "muster-monitoring");
        assertThat(monitor.getSpec().getEndpoints()).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.getPath()).isEqualTo("/q/metrics");
            assertThat(endpoint.getPort()).isEqualTo("http");
        });
        assertThat(monitor.getSpec().getJobLabel()).as("job names the service, as the dashboard expects").isEqualTo("app.kubernetes.io/name");
        JsonNode rendered = YAML.valueToTree(chart.named(PrometheusRule.class, "muster-monitoring").getSpec().getGroups());
        assertThat(rendered).isEqualTo(YAML.readTree(RULES.toFile()).path("groups"));
        ConfigMap dashboard = chart.named(ConfigMap.class, "muster-monitoring-dashboard");
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(YAML.readTree(dashboard.getData().get("muster.json"))).isEqualTo(YAML.readTree(DASHBOARD.toFile()));
    }

    @Test
    void tracingAndJsonLogsAreOffUntilAskedForThenEveryServiceExportsToTheCollectorAndLogsJson() throws IOException {
        List<io.fabric8.kubernetes.api.model.EnvVar> byDefault = env(RenderedChart.render(Map.of()));
        List<io.fabric8.kubernetes.api.model.EnvVar> asked = env(RenderedChart.render(Map.of(
                "monitoring.tracing.otlpEndpoint", "http://otel-collector.observability:4318", "monitoring.jsonLogs", true)));

        assertThat(byDefault).extracting(io.fabric8.kubernetes.api.model.EnvVar::getName)
                .doesNotContain("QUARKUS_OTEL_SDK_DISABLED", "QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT", "QUARKUS_LOG_CONSOLE_JSON_ENABLED");
        assertThat(asked).filteredOn(variable -> variable.getName().equals("QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT")).hasSize(3)
                .allSatisfy(variable -> assertThat(variable.getValue()).isEqualTo("http://otel-collector.observability:4318"));
        assertThat(asked).filteredOn(variable -> variable.getName().equals("QUARKUS_OTEL_SDK_DISABLED")).hasSize(3)
                .allSatisfy(variable -> assertThat(variable.getValue()).isEqualTo("false"));
        assertThat(asked).filteredOn(variable -> variable.getName().equals("QUARKUS_LOG_CONSOLE_JSON_ENABLED")).hasSize(3);
    }

    /** The environment of every service's container, as rendered. */
    private static List<io.fabric8.kubernetes.api.model.EnvVar> env(RenderedChart chart) {
        List<io.fabric8.kubernetes.api.model.PodSpec> pods = new java.util.ArrayList<>();
        chart.all(io.fabric8.kubernetes.api.model.apps.StatefulSet.class).forEach(set -> pods.add(set.getSpec().getTemplate().getSpec()));
        chart.all(io.fabric8.kubernetes.api.model.apps.Deployment.class).forEach(deployment -> pods.add(deployment.getSpec().getTemplate().getSpec()));
        return pods.stream().flatMap(pod -> pod.getContainers().stream()).flatMap(container -> container.getEnv().stream()).toList();
    }

    @Test
    void theAlertRulesPassPromtoolsChecksAndTheirUnitTests() throws Exception {
        Optional<Path> promtool = Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(dir -> Path.of(dir, "promtool")).filter(Files::isExecutable).findFirst();
        if (promtool.isEmpty() && "true".equals(System.getenv("MUSTER_REQUIRE_PROMETHEUS"))) {
            throw new IllegalStateException("no promtool on the PATH, and MUSTER_REQUIRE_PROMETHEUS is set: install Debian's prometheus");
        }
        Assumptions.assumeTrue(promtool.isPresent(), "no promtool on the PATH: install Debian's prometheus package to run this test");

        assertThat(run(promtool.get(), "check", "rules", "muster-rules.yaml")).contains("SUCCESS: 5 rules found");
        assertThat(run(promtool.get(), "test", "rules", "muster-rules.test.yaml")).contains("SUCCESS");
    }

    private static String run(Path promtool, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).directory(Path.of("prometheus").toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("promtool %s: %s", String.join(" ", arguments), output).isZero();
        return output;
    }
}
