package dev.muster.fleetclient.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** A watch that no object and no outage stops for good, and that says when it is not watching. */
class SupervisedInformerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final WatchSettings FAST = new WatchSettings(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMillis(200));

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private SupervisedInformer<?> informer;

    @AfterEach
    void stop() {
        if (informer != null) {
            informer.close();
        }
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.destroy();
        }
        scheduler.shutdownNow();
    }

    /** Records which objects are there, as the informer reports them. */
    private <T extends io.fabric8.kubernetes.api.model.HasMetadata> ResourceEventHandler<T> handler() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                seen.add(object.getMetadata().getName());
            }

            @Override
            public void onUpdate(T old, T object) {
                seen.add(object.getMetadata().getName());
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                seen.remove(object.getMetadata().getName());
            }
        };
    }

    private SupervisedInformer<ConfigMap> watchConfigMaps() {
        return new SupervisedInformer<>("test configmaps", () -> client.configMaps().inNamespace("default").runnableInformer(0), null,
                handler(), scheduler, FAST, Clock.systemUTC()).start();
    }

    @Test
    void anObjectThatCannotBeReadStopsTheInformerOnlyUntilItIsGoneAndReadinessSaysWhyMeanwhile() {
        startServer();
        widgets().resource(widget("good-1", 1)).create();
        widgets().resource(poison()).create();

        informer = watchWidgets();

        await().atMost(DEADLINE).until(() -> informer.restarts() >= 2);
        WatchStatus down = informer.status();
        assertThat(down.watching()).isFalse();
        assertThat(down.problem()).contains("not watching since");

        widgets().withName("poison").delete();
        widgets().resource(widget("good-2", 2)).create();

        await().atMost(DEADLINE).until(() -> informer.status().watching() && seen.containsAll(List.of("good-1", "good-2")));
    }

    @Test
    void aWatchThatListedEverythingAgainStartsItsBackoffOver() {
        startServer();
        widgets().resource(poison()).create();
        informer = watchWidgets();
        await().atMost(DEADLINE).until(() -> informer.restarts() >= 3);
        assertThat(informer.nextRestartDelay()).as("doubled up to the maximum").isEqualTo(FAST.maxRestartBackoff());

        widgets().withName("poison").delete();
        widgets().resource(widget("good", 1)).create();
        await().atMost(DEADLINE).until(() -> informer.status().watching() && seen.contains("good"));

        // Months of restarts must not make every later outage a minute longer.
        assertThat(informer.nextRestartDelay()).isEqualTo(FAST.restartBackoff());
    }

    @Test
    void aWatchOfAnApiServerThatIsDownSaysSoAndWatchesOnceItAnswers() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        client = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).withRequestTimeout(1000).withConnectionTimeout(1000).build()).build();

        informer = watchConfigMaps();

        // fabric8's own informer stops for good when its first list fails; this one keeps trying.
        await().pollDelay(Duration.ofSeconds(2)).atMost(DEADLINE).until(() -> !informer.status().watching());
        assertThat(informer.status().problem()).isNotBlank();

        server = crudServer();
        server.init(InetAddress.getLoopbackAddress(), port);
        server.createClient().configMaps().inNamespace("default").resource(configMap("after-outage")).create();

        await().atMost(DEADLINE).until(() -> informer.status().watching() && seen.contains("after-outage"));
    }

    @Test
    void aDeletionWhileTheInformerWasStoppedIsReportedOnceItRunsAgain() {
        startServer();
        widgets().resource(widget("kept", 1)).create();
        widgets().resource(widget("deleted-meanwhile", 2)).create();
        informer = watchWidgets();
        await().atMost(DEADLINE).until(() -> informer.status().watching() && seen.size() == 2);

        // An object that cannot be read stops the informer; meanwhile another object is deleted.
        widgets().resource(poison()).create();
        await().atMost(DEADLINE).until(() -> informer.restarts() >= 1);
        widgets().withName("deleted-meanwhile").delete();
        widgets().withName("poison").delete();

        await().atMost(DEADLINE).until(() -> informer.status().watching() && seen.equals(Set.of("kept")));
    }

    private void startServer() {
        server = crudServer();
        server.init(InetAddress.getLoopbackAddress(), 0);
        server.expectCustomResource(CustomResourceDefinitionContext.fromCustomResourceType(Widget.class));
        client = server.createClient();
    }

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> widgets() {
        return client.genericKubernetesResources("test.muster.dev/v1", "Widget").inNamespace("default");
    }

    private SupervisedInformer<Widget> watchWidgets() {
        return new SupervisedInformer<>("test widgets", () -> client.resources(Widget.class).inNamespace("default").runnableInformer(0), null,
                handler(), scheduler, FAST, Clock.systemUTC()).start();
    }

    private static GenericKubernetesResource widget(String name, Object size) {
        return new GenericKubernetesResourceBuilder().withApiVersion("test.muster.dev/v1").withKind("Widget")
                .withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToAdditionalProperties("spec", Map.of("size", size)).build();
    }

    /** Stored as the API server was given it: a size that is not a number cannot be read into the type. */
    private static GenericKubernetesResource poison() {
        return widget("poison", "two");
    }

    /** An API server that stores what it is given (CRUD mode), over plain HTTP. */
    private static KubernetesMockServer crudServer() {
        return new KubernetesMockServer(new io.fabric8.mockwebserver.Context(), new io.fabric8.mockwebserver.MockWebServer(),
                new java.util.HashMap<>(), new io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher(), false);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(Map.of("key", "value")).build();
    }
}
