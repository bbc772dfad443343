package dev.muster.fleetclient.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

/** Every watch a service starts is audited against its API server's list, one failing list disturbing no other. */
class WatchesTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** The settings as a record: its accessors are the configuration's methods. */
    private record FastWatches(Duration restartBackoff, Duration maxRestartBackoff, Duration reconnectGrace, Duration stallTimeout,
                               Duration auditInterval) implements WatchConfig {
    }

    private final Watches watches = new Watches(new FastWatches(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMillis(200),
            Duration.ofSeconds(1), Duration.ofMillis(200)));

    @AfterEach
    void stop() {
        watches.closeWatches(null);
        watches.stop();
    }

    @Test
    void aWatchThatWentDeafIsStartedAgainByTheAuditEvenWhenAnotherWatchesApiServerDoesNotAnswer() {
        ConfigMap known = configMap("known");
        ConfigMap created = configMap("created");
        AtomicInteger made = new AtomicInteger();
        List<List<ConfigMap>> seeded = new CopyOnWriteArrayList<>();
        AtomicInteger unreachableLists = new AtomicInteger();
        // Registered first, so that its failing list comes before the deaf watch's in every round.
        watches.start("unreachable configmaps", () -> SupervisedInformerTest.fakeInformer(known, true, new CopyOnWriteArrayList<>(),
                new CopyOnWriteArrayList<>()), null, ignoring(), () -> {
                    unreachableLists.incrementAndGet();
                    throw new IllegalStateException("connection refused");
                });
        SupervisedInformer<ConfigMap> deaf = watches.start("deaf configmaps", () -> {
            made.incrementAndGet();
            return SupervisedInformerTest.fakeInformer(known, true, seeded, new CopyOnWriteArrayList<>());
        }, null, ignoring(), () -> List.of(known, created));

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(made).hasValueGreaterThanOrEqualTo(2));
        assertThat(deaf.restarts()).isGreaterThanOrEqualTo(1);
        assertThat(seeded.get(0)).as("started again from what it knew").containsExactly(known);
        assertThat(unreachableLists).as("the failing list was tried each round").hasValueGreaterThanOrEqualTo(2);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata().build();
    }

    private static ResourceEventHandler<ConfigMap> ignoring() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object) {
            }

            @Override
            public void onUpdate(ConfigMap old, ConfigMap object) {
            }

            @Override
            public void onDelete(ConfigMap object, boolean deletedFinalStateUnknown) {
            }
        };
    }
}
