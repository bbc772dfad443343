package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/**
 * The member API server keeps objects apart by kind, namespace and name through create, update and delete, tells watches,
 * and binds pods as a real one does.
 */
class MemberApiTest {

    @Test
    void objectsAreFoundByKindNamespaceAndNameThroughTheirWholeLife(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            for (String namespace : new String[] {"team-a", "team-b"}) {
                client.configMaps().inNamespace(namespace).resource(configMap(namespace, "settings", namespace)).create();
            }
            client.secrets().inNamespace("team-a").resource(new SecretBuilder().withNewMetadata().withName("settings")
                    .withNamespace("team-a").endMetadata().withStringData(Map.of("token", "t")).build()).create();

            client.configMaps().inNamespace("team-a").withName("settings").edit(map -> {
                map.getData().put("owner", "edited");
                return map;
            });
            assertThat(data("team-a", client)).containsEntry("owner", "edited");
            assertThat(data("team-b", client)).containsEntry("owner", "team-b");

            client.configMaps().inNamespace("team-a").withName("settings").delete();
            await(() -> client.configMaps().inNamespace("team-a").withName("settings").get() == null);
            assertThat(client.secrets().inNamespace("team-a").withName("settings").get()).isNotNull();
            client.configMaps().inNamespace("team-a").resource(configMap("team-a", "settings", "again")).create();
            assertThat(data("team-a", client)).containsEntry("owner", "again");
            assertThat(client.configMaps().inAnyNamespace().withLabel("app", "settings").list().getItems()).hasSize(2);
        }
    }

    @Test
    void watchesSeeWhatTheySelectOnceEachInTheOrderItChanged(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            client.configMaps().inNamespace("team-a").resource(configMap("team-a", "existing", "first")).create();
            BlockingQueue<String> selected = new LinkedBlockingQueue<>();
            BlockingQueue<String> named = new LinkedBlockingQueue<>();
            try (Watch bySelector = client.configMaps().inNamespace("team-a").withLabel("app", "settings").watch(recorder(selected));
                 Watch byName = client.configMaps().inNamespace("team-a").withName("settings").watch(recorder(named))) {
                assertThat(next(selected)).isEqualTo("ADDED existing first");

                client.configMaps().inNamespace("team-b").resource(configMap("team-b", "settings", "elsewhere")).create();
                client.configMaps().inNamespace("team-a").resource(configMap("team-a", "settings", "created")).create();
                client.configMaps().inNamespace("team-a").withName("settings").edit(map -> {
                    map.getData().put("owner", "edited");
                    return map;
                });
                client.configMaps().inNamespace("team-a").withName("settings").edit(map -> {
                    map.getMetadata().getLabels().put("app", "other");
                    return map;
                });
                client.configMaps().inNamespace("team-a").withName("existing").delete();

                assertThat(List.of(next(selected), next(selected), next(selected), next(selected)))
                        .as("a change that takes the object out of the selection is its deletion, with its last state")
                        .containsExactly("ADDED settings created", "MODIFIED settings edited", "DELETED settings edited", "DELETED existing first");
                assertThat(List.of(next(named), next(named), next(named)))
                        .containsExactly("ADDED settings created", "MODIFIED settings edited", "MODIFIED settings edited");
                assertThat(selected.poll(300, TimeUnit.MILLISECONDS)).as("nothing else, and nothing twice").isNull();
                assertThat(named.poll(0, TimeUnit.MILLISECONDS)).isNull();
            }
        }
    }

    @Test
    void aWatchWithAnUnreadableFieldSelectorIsRefused(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs)) {
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(fleet.cluster("api").orElseThrow().url() + "/api/v1/namespaces/team-a/configmaps?watch=true&fieldSelector=nonsense"))
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("invalid field selector term \\\"nonsense\\\"");
        }
    }

    @Test
    void aJsonPatchWhoseTestFailsIsRefusedAndChangesNothing(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            client.configMaps().inNamespace("team-a").resource(configMap("team-a", "settings", "first")).create();
            var settings = client.configMaps().inNamespace("team-a").withName("settings");

            assertThatThrownBy(() -> settings.patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"test\",\"path\":\"/data/owner\",\"value\":\"someone else\"},"
                            + "{\"op\":\"replace\",\"path\":\"/data/owner\",\"value\":\"patched\"}]"))
                    .isInstanceOfSatisfying(KubernetesClientException.class, refused -> assertThat(refused.getCode()).isEqualTo(422));
            assertThat(data("team-a", client)).containsEntry("owner", "first");

            settings.patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"test\",\"path\":\"/data/owner\",\"value\":\"first\"},"
                    + "{\"op\":\"replace\",\"path\":\"/data/owner\",\"value\":\"patched\"}]");
            assertThat(data("team-a", client)).containsEntry("owner", "patched");
        }
    }

    @Test
    void aBindingSetsThePodsNodeAndScheduledConditionInOneChangeAndOnlyOnce(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            client.pods().inNamespace("team-a").resource(new PodBuilder().withNewMetadata().withName("worker").withNamespace("team-a").endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("trainer").endContainer().endSpec().build()).create();
            // The member has no nodes: its scheduler finds the pod unschedulable once, and then leaves it be.
            await(() -> "False".equals(scheduled(client.pods().inNamespace("team-a").withName("worker").get())));
            BlockingQueue<Pod> changes = new LinkedBlockingQueue<>();
            try (Watch watch = client.pods().inNamespace("team-a").withName("worker").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    if (action == Action.MODIFIED) {
                        changes.add(pod);
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            })) {
                client.bindings().inNamespace("team-a").resource(binding("worker", "node-1")).create();

                Pod bound = changes.poll(5, TimeUnit.SECONDS);
                assertThat(bound).as("a change within 5 s").isNotNull();
                assertThat(bound.getSpec().getNodeName()).isEqualTo("node-1");
                assertThat(scheduled(bound)).as("the same change says it is scheduled").isEqualTo("True");
            }
            assertThatThrownBy(() -> client.bindings().inNamespace("team-a").resource(binding("worker", "node-2")).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, refused -> {
                        assertThat(refused.getCode()).isEqualTo(409);
                        assertThat(refused.getMessage()).contains("already assigned to node \"node-1\"");
                    });
            assertThat(client.pods().inNamespace("team-a").withName("worker").get().getSpec().getNodeName()).isEqualTo("node-1");
            assertThatThrownBy(() -> client.bindings().inNamespace("team-a").resource(binding("nobody", "node-1")).create())
                    .isInstanceOfSatisfying(KubernetesClientException.class, refused -> assertThat(refused.getCode()).isEqualTo(404));
        }
    }

    @Test
    void answeredRequestsAreNotKept(@TempDir Path kubeconfigs) throws Exception {
        try (SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse("clusters: [{name: api}]", "test"), kubeconfigs);
             KubernetesClient client = fleet.cluster("api").orElseThrow().connect()) {
            for (int i = 0; i < 20; i++) {
                client.configMaps().inNamespace("team-a").resource(configMap("team-a", "settings-" + i, "owner")).create();
            }
            var server = fleet.cluster("api").orElseThrow().server();
            assertThat(server.getRequestCount()).isGreaterThanOrEqualTo(20);
            assertThat(server.takeRequest(0, TimeUnit.NANOSECONDS)).as("a request the server still holds after answering it").isNull();
        }
    }

    private static Binding binding(String pod, String node) {
        return new BindingBuilder().withNewMetadata().withName(pod).withNamespace("team-a").endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(node).endTarget().build();
    }

    /** The status of the pod's PodScheduled condition; null without one. */
    private static String scheduled(Pod pod) {
        return pod.getStatus() == null || pod.getStatus().getConditions() == null ? null : pod.getStatus().getConditions().stream()
                .filter(condition -> "PodScheduled".equals(condition.getType())).map(PodCondition::getStatus).findFirst().orElse(null);
    }

    private static Watcher<ConfigMap> recorder(BlockingQueue<String> events) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap map) {
                events.add(action + " " + map.getMetadata().getName() + " " + map.getData().get("owner"));
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }

    private static String next(BlockingQueue<String> events) throws InterruptedException {
        String event = events.poll(5, TimeUnit.SECONDS);
        assertThat(event).as("an event within 5 s").isNotNull();
        return event;
    }

    private static ConfigMap configMap(String namespace, String name, String owner) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(namespace).addToLabels("app", "settings").endMetadata()
                .withData(new java.util.HashMap<>(Map.of("owner", owner))).build();
    }

    private static Map<String, String> data(String namespace, KubernetesClient client) {
        return client.configMaps().inNamespace(namespace).withName("settings").get().getData();
    }

    private static void await(java.util.concurrent.Callable<Boolean> condition) {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).until(condition);
    }
}
