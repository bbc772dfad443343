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
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

/** The member API server keeps objects apart by kind, namespace and name through create, update and delete, and tells watches. */
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
