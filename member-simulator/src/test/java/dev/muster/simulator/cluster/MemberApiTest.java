package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** The member API server keeps objects apart by kind, namespace and name through create, update and delete. */
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
