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
    private static final WatchSettings FAST = new WatchSettings(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMillis(200),
            Duration.ofSeconds(1));

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

    /**
     * fabric8's informer can be left running and not watching after a failed reconnect, retrying nothing and never
     * stopping (fabric8io/kubernetes-client#6379): stood in for by an informer that does just that.
     */
    @Test
    void anInformerThatRunsWithoutWatchingPastTheStallTimeoutIsStartedAgainFromWhatItKnew() {
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<java.util.List<ConfigMap>> seeded = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<Boolean> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();
        ConfigMap known = new ConfigMapBuilder().withNewMetadata().withName("known").withNamespace("default").endMetadata().build();
        java.util.function.Supplier<io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap>> stuck = () -> {
            made.incrementAndGet();
            return fakeInformer(known, false, seeded, stopped);
        };
        informer = new SupervisedInformer<>("stuck configmaps", stuck, null, handler(), scheduler, FAST, Clock.systemUTC()).start();

        informer.restartIfStalled();
        assertThat(made).as("within the stall timeout it is left alone").hasValue(1);

        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            informer.restartIfStalled();
            assertThat(made.get()).isGreaterThanOrEqualTo(2);
        });
        assertThat(stopped).as("the stuck informer was stopped").contains(true);
        assertThat(seeded).as("the new informer starts from what the stuck one knew").anySatisfy(objects -> assertThat(objects).containsExactly(known));
        assertThat(informer.restarts()).isGreaterThanOrEqualTo(1);
    }

    /** A watch whose connection died unseen: it says it watches, and holds what it held when it went deaf. */
    @Test
    void aWatchThatMissesWhatTheApiServerShowsTwiceInARowIsStartedAgainFromWhatItKnew() {
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        java.util.List<java.util.List<ConfigMap>> seeded = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.List<Boolean> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();
        ConfigMap known = new ConfigMapBuilder().withNewMetadata().withName("known").withNamespace("default").endMetadata().build();
        ConfigMap created = new ConfigMapBuilder().withNewMetadata().withName("created").withNamespace("default").endMetadata().build();
        informer = new SupervisedInformer<>("deaf configmaps", () -> {
            made.incrementAndGet();
            return fakeInformer(known, true, seeded, stopped);
        }, null, handler(), scheduler, FAST, Clock.systemUTC()).start();
        SupervisedInformer<?> deaf = informer;

        assertThat(deaf.restartIfDeaf(List.of(known))).as("nothing missed").isFalse();
        assertThat(deaf.restartIfDeaf(List.of(known, created))).as("seen once: maybe an event in flight").isFalse();
        assertThat(deaf.restartIfDeaf(List.of(known))).as("gone again: it was in flight").isFalse();
        assertThat(deaf.restartIfDeaf(List.of(known, created))).isFalse();
        assertThat(deaf.restartIfDeaf(List.of(created))).as("created missed twice in a row").isTrue();

        assertThat(stopped).contains(true);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(made).hasValue(2));
        assertThat(seeded).singleElement().satisfies(objects -> assertThat(objects).containsExactly(known));
        assertThat(deaf.status().problem()).isNull();
    }

    /** An informer that says it runs and has listed, watching or not as told, and stops only when told to. */
    @SuppressWarnings("unchecked")
    static io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap> fakeInformer(ConfigMap known, boolean watching,
            java.util.List<java.util.List<ConfigMap>> seeded, java.util.List<Boolean> stopped) {
        java.util.concurrent.CompletableFuture<Void> stop = new java.util.concurrent.CompletableFuture<>();
        io.fabric8.kubernetes.client.informers.cache.Store<ConfigMap> store = (io.fabric8.kubernetes.client.informers.cache.Store<ConfigMap>)
                java.lang.reflect.Proxy.newProxyInstance(SupervisedInformerTest.class.getClassLoader(),
                        new Class<?>[] {io.fabric8.kubernetes.client.informers.cache.Store.class},
                        (proxy, method, arguments) -> switch (method.getName()) {
                            case "list" -> List.of(known);
                            case "listKeys" -> List.of("default/known");
                            default -> null;
                        });
        Object[] self = new Object[1];
        self[0] = java.lang.reflect.Proxy.newProxyInstance(SupervisedInformerTest.class.getClassLoader(),
                new Class<?>[] {io.fabric8.kubernetes.client.informers.SharedIndexInformer.class}, (proxy, method, arguments) -> switch (method.getName()) {
                    case "isRunning" -> !stop.isDone();
                    case "hasSynced" -> true;
                    case "isWatching" -> watching && !stop.isDone();
                    case "start" -> java.util.concurrent.CompletableFuture.completedFuture(null);
                    case "stopped" -> stop;
                    case "stop", "close" -> {
                        stopped.add(true);
                        stop.complete(null);
                        yield null;
                    }
                    case "getStore" -> store;
                    case "initialState" -> {
                        seeded.add(((java.util.stream.Stream<ConfigMap>) arguments[0]).toList());
                        yield self[0];
                    }
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == arguments[0];
                    default -> method.getReturnType().isInstance(proxy) ? proxy : null;
                });
        return (io.fabric8.kubernetes.client.informers.SharedIndexInformer<ConfigMap>) self[0];
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
