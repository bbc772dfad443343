package dev.muster.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;

/**
 * Muster's Helm chart, linted and rendered without a cluster: three services, each an active and a standby instance
 * with probes, resources, a disruption budget and spread over nodes, their configuration where Quarkus reads it, the
 * members' kubeconfigs as a directory, and each service's own identity.
 */
class HelmChartTest {

    private static final Path FULL_VALUES = Path.of("src", "test", "resources", "values-full.yaml");

    @Test
    void theChartLintsCleanStrictly() {
        LintResult lint = new Helm(RenderedChart.CHART).lint().strict().call();

        assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
    }

    @Test
    void everyObjectRenderedWithEveryValueSetIsOneKubernetesOrStrimziKnowsToTheField() {
        RenderedChart chart = RenderedChart.render(Map.of(), FULL_VALUES);

        assertThat(chart.objects()).extracting(object -> object.getKind()).contains("StatefulSet", "Deployment", "Service", "ServiceAccount",
                "ClusterRole", "ClusterRoleBinding", "PodDisruptionBudget", "ConfigMap", "Kafka", "KafkaNodePool", "KafkaTopic", "KafkaUser",
                "ServiceMonitor", "PrometheusRule");
    }

    @Test
    void eachServiceRunsAnActiveInstanceAndAStandbyWithProbesResourcesAndADisruptionBudget() {
        RenderedChart chart = RenderedChart.render(Map.of());

        Map<String, PodTemplateSpec> pods = Map.of(
                "queue-service", replicated(chart.named(StatefulSet.class, "muster-queue-service").getSpec().getReplicas(),
                        chart.named(StatefulSet.class, "muster-queue-service").getSpec().getTemplate()),
                "placement-service", replicated(chart.named(StatefulSet.class, "muster-placement-service").getSpec().getReplicas(),
                        chart.named(StatefulSet.class, "muster-placement-service").getSpec().getTemplate()),
                "status-sync-service", replicated(chart.named(Deployment.class, "muster-status-sync-service").getSpec().getReplicas(),
                        chart.named(Deployment.class, "muster-status-sync-service").getSpec().getTemplate()));
        pods.forEach((service, template) -> {
            PodSpec pod = template.getSpec();
            Container container = pod.getContainers().get(0);
            assertThat(pod.getServiceAccountName()).isEqualTo("muster-" + service);
            assertThat(container.getImage()).isEqualTo("ghcr.io/muster-dev/" + service + ":0.1.0");
            assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/q/health/ready");
            assertThat(container.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/q/health/live");
            assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits()).containsKey("memory");
            assertThat(pod.getTopologySpreadConstraints()).singleElement().satisfies(spread ->
                    assertThat(spread.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
            assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
            assertThat(env(container, "QUARKUS_CONFIG_LOCATIONS")).isEqualTo("/etc/muster/config/application.properties");
            assertThat(chart.named(PodDisruptionBudget.class, "muster-" + service).getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        });
    }

    private static PodTemplateSpec replicated(Integer replicas, PodTemplateSpec template) {
        assertThat(replicas).as("an active instance and a standby").isEqualTo(2);
        return template;
    }

    /** The transactional services keep a name per pod across restarts: their transactional id, which fences a crashed predecessor at once. */
    @Test
    void theTransactionalServicesTakeTheirInstanceIdFromTheirPodsStableName() {
        RenderedChart chart = RenderedChart.render(Map.of());

        for (String service : List.of("queue", "placement")) {
            Container container = chart.named(StatefulSet.class, "muster-" + service + "-service").getSpec().getTemplate().getSpec().getContainers().get(0);
            EnvVar instanceId = container.getEnv().stream().filter(env -> env.getName().equals("MUSTER_" + service.toUpperCase() + "_INSTANCE_ID"))
                    .findFirst().orElseThrow();
            assertThat(instanceId.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
        }
    }

    @Test
    void valuesBecomeTheServicesOwnSettingsAndSecretsComeOnlyFromSecrets() {
        RenderedChart chart = RenderedChart.render(Map.of(), FULL_VALUES);

        Map<String, String> queue = chart.properties("muster-queue-service");
        assertThat(queue).containsEntry("kafka.bootstrap.servers", "muster-kafka-bootstrap:9093")
                .containsEntry("kafka.security.protocol", "SASL_SSL")
                .containsEntry("kafka.sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("muster.limits.max-pods-per-gang", "512")
                .containsEntry("muster.queue.starvation-age", "10m")
                .containsEntry("muster.queue.submitters.\"team-a-ci\".namespaces", "team-a")
                .containsEntry("muster.views.viewers.\"platform\".namespaces", "*")
                .doesNotContainKey("muster.queue.members-directory");
        assertThat(queue.keySet()).noneMatch(name -> name.contains("jaas") || name.contains("password"));
        assertThat(chart.properties("muster-placement-service")).containsEntry("muster.placement.members-directory", "/etc/muster/members");
        assertThat(chart.properties("muster-status-sync-service")).containsEntry("muster.status-sync.members-directory", "/etc/muster/members");

        Container queueContainer = chart.named(StatefulSet.class, "muster-queue-service").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(queueContainer.getEnv()).filteredOn(env -> env.getName().equals("KAFKA_SASL_JAAS_CONFIG")).singleElement().satisfies(env -> {
            assertThat(env.getValue()).isNull();
            assertThat(env.getValueFrom().getSecretKeyRef().getName()).as("the KafkaUser's own Secret").isEqualTo("muster-queue-service");
        });
    }

    /** Adding a member is adding its Secret: placement and status sync read each as {@code <member>.kubeconfig} from one directory. */
    @Test
    void eachMembersSecretIsAKubeconfigInTheDirectoryPlacementAndStatusSyncRead() {
        RenderedChart chart = RenderedChart.render(Map.of(), FULL_VALUES);

        for (PodSpec pod : List.of(chart.named(StatefulSet.class, "muster-placement-service").getSpec().getTemplate().getSpec(),
                chart.named(Deployment.class, "muster-status-sync-service").getSpec().getTemplate().getSpec())) {
            Volume members = pod.getVolumes().stream().filter(volume -> volume.getName().equals("members")).findFirst().orElseThrow();
            assertThat(members.getProjected().getSources()).extracting(source -> source.getSecret().getName() + ":"
                    + source.getSecret().getItems().get(0).getKey() + "->" + source.getSecret().getItems().get(0).getPath())
                    .containsExactly("muster-member-gpu-a:kubeconfig->gpu-a.kubeconfig", "muster-member-gpu-b:kubeconfig->gpu-b.kubeconfig");
            assertThat(pod.getContainers().get(0).getVolumeMounts()).anySatisfy(mount -> assertThat(mount.getMountPath()).isEqualTo("/etc/muster/members"));
        }
        assertThat(chart.named(StatefulSet.class, "muster-queue-service").getSpec().getTemplate().getSpec().getVolumes())
                .as("the queue writes to no member").noneMatch(volume -> volume.getName().equals("members"));
    }

    @Test
    void eachServiceIsBoundToItsOwnRoleAndTheQueueOnlyReads() {
        RenderedChart chart = RenderedChart.render(Map.of());

        for (String service : List.of("queue-service", "placement-service", "status-sync-service")) {
            ClusterRoleBinding binding = chart.named(ClusterRoleBinding.class, "muster-" + service);
            assertThat(binding.getRoleRef().getName()).isEqualTo("muster-" + service);
            assertThat(binding.getSubjects()).singleElement().satisfies(subject -> {
                assertThat(subject.getName()).isEqualTo("muster-" + service);
                assertThat(subject.getNamespace()).isEqualTo("muster");
            });
        }
        assertThat(chart.named(ClusterRole.class, "muster-queue-service").getRules()).flatExtracting(rule -> rule.getVerbs())
                .containsOnly("list", "watch");
        assertThat(chart.all(ClusterRole.class)).flatExtracting(ClusterRole::getRules).flatExtracting(rule -> rule.getVerbs())
                .as("no wildcard anywhere").doesNotContain("*");
    }

    @Test
    void onAMemberTheChartMakesOnlyMustersIdentityThereAndWhatItMayDo() {
        RenderedChart chart = RenderedChart.render(Map.of("fleet.enabled", false, "member.enabled", true));

        assertThat(chart.objects()).extracting(object -> object.getKind() + "/" + object.getMetadata().getName()).containsExactlyInAnyOrder(
                "ServiceAccount/muster-member-access", "Secret/muster-member-access-token", "ClusterRole/muster-member-access",
                "ClusterRoleBinding/muster-member-access");
    }

    @Test
    void withoutStrimziTheBootstrapServersAreRequiredAndNoKafkaResourceIsMade() {
        assertThatThrownBy(() -> RenderedChart.render(Map.of("strimzi.enabled", false)))
                .hasMessageContaining("kafka.bootstrapServers is required");

        RenderedChart chart = RenderedChart.render(Map.of("strimzi.enabled", false, "kafka.bootstrapServers", "kafka.example:9092",
                "kafka.settings.security\\.protocol", "SSL"));

        assertThat(chart.objects()).noneMatch(object -> object.getApiVersion().startsWith("kafka.strimzi.io"));
        assertThat(chart.properties("muster-placement-service")).containsEntry("kafka.bootstrap.servers", "kafka.example:9092")
                .containsEntry("kafka.security.protocol", "SSL").doesNotContainKey("kafka.sasl.mechanism");
        assertThat(chart.named(StatefulSet.class, "muster-placement-service").getSpec().getTemplate().getSpec().getContainers().get(0).getEnv())
                .noneMatch(env -> env.getName().startsWith("KAFKA_"));
    }

    /** One source for the CRDs: the model classes, which fabric8's CRD generator turns into what the local fleet API serves too. */
    @Test
    void theChartsCrdsAreTheOnesTheModelGenerates() throws IOException {
        List<Path> inChart;
        try (Stream<Path> files = Files.list(RenderedChart.CHART.resolve("crds"))) {
            inChart = files.sorted().toList();
        }
        assertThat(inChart).extracting(path -> path.getFileName().toString()).containsExactly(
                "elasticquotatrees.scheduling.sigs.k8s.io-v1.yml", "propagationpolicies.policy.one.alibabacloud.com-v1.yml",
                "pytorchjobs.kubeflow.org-v1.yml", "queues.scheduling.x-k8s.io-v1.yml", "queueunits.scheduling.x-k8s.io-v1.yml");
        for (Path crd : inChart) {
            try (InputStream generated = getClass().getResourceAsStream("/META-INF/fabric8/" + crd.getFileName())) {
                assertThat(generated).as("generated from the model: %s", crd.getFileName()).isNotNull();
                assertThat(Files.readString(crd)).as("%s in the chart, against the model's (copy it again from shared-model's build)",
                        crd.getFileName()).isEqualTo(new String(generated.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    private static String env(Container container, String name) {
        return container.getEnv().stream().filter(env -> env.getName().equals(name)).map(EnvVar::getValue).findFirst().orElse(null);
    }
}
