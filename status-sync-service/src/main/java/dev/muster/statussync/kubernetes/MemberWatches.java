package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.Topics;
import dev.muster.model.member.MemberKubeconfig;
import dev.muster.statussync.config.StatusSyncConfig;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Watches every configured member cluster and reports what it observes to {@link Topics#INVENTORY}, keyed by
 * cluster so that one member's reports stay in order.
 */
@ApplicationScoped
public class MemberWatches {

    public static final String SOURCE = "/muster/status-sync-service";
    private static final Logger LOG = Logger.getLogger(MemberWatches.class);

    private final StatusSyncConfig config;
    private final Emitter<byte[]> inventory;
    private final Clock clock = Clock.systemUTC();
    private final List<MemberWatch> watches = new ArrayList<>();
    private ScheduledExecutorService probes;

    MemberWatches(StatusSyncConfig config, @Channel("inventory") @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> inventory) {
        this.config = config;
        this.inventory = inventory;
    }

    void start(@Observes StartupEvent startup) {
        if (config.members().isEmpty()) {
            LOG.info("no member clusters configured (muster.status-sync.members.<name>.kubeconfig): nothing to watch");
            return;
        }
        probes = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "member-probes");
            thread.setDaemon(true);
            return thread;
        });
        config.members().forEach((cluster, member) -> {
            MemberWatch watch = new MemberWatch(cluster, client(cluster, member), this::publish, member.labels(), clock);
            watch.start(probes, config.healthInterval(), config.resync());
            watches.add(watch);
            LOG.infof("watching member %s (kubeconfig %s)", cluster, member.kubeconfig());
        });
    }

    private io.fabric8.kubernetes.client.KubernetesClient client(String cluster, StatusSyncConfig.Member member) {
        try {
            Config kubeconfig = MemberKubeconfig.read(Path.of(member.kubeconfig()));
            // A member that does not answer must not hold the probe up: fail fast, the next probe tries again.
            Config config = new ConfigBuilder(kubeconfig).withRequestTimeout(5_000).withConnectionTimeout(3_000)
                    .withRequestRetryBackoffLimit(0).build();
            return new KubernetesClientBuilder().withConfig(config).build();
        } catch (IOException e) {
            throw new UncheckedIOException("member " + cluster + ": cannot read kubeconfig " + member.kubeconfig(), e);
        }
    }

    private void publish(MemberEventData data) {
        MemberEvent event = MemberEvent.create(SOURCE, clock.instant(), data);
        inventory.send(KafkaRecord.of(Topics.INVENTORY, event.key(), EventSerde.serialize(event)));
    }

    void stop(@Observes ShutdownEvent shutdown) {
        watches.forEach(MemberWatch::close);
        if (probes != null) {
            probes.shutdownNow();
        }
    }
}
