package dev.muster.statussync.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.statussync.core.inventory.InventoryReporter;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Watches one member cluster: its nodes, pods and (where the member serves them) reservations through
 * informers, and its API's reachability by a periodic probe, reporting each real change through
 * {@link InventoryReporter}. Informers reconnect and re-list by themselves after a watch gap.
 */
final class MemberWatch implements AutoCloseable {

    /** The member's description, as member clusters (and the simulator) publish it. */
    static final String MEMBER_CONFIG_MAP = "muster-member";

    private static final Logger LOG = Logger.getLogger(MemberWatch.class);

    private final String cluster;
    private final KubernetesClient client;
    private final InventoryReporter reporter;
    private final Consumer<MemberEventData> publish;
    private final Map<String, String> configuredLabels;
    private final Clock clock;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private ScheduledFuture<?> probe;
    private volatile boolean reservationSupported;
    private volatile Instant lastSeenHealthy;

    MemberWatch(String cluster, KubernetesClient client, Consumer<MemberEventData> publish, Map<String, String> configuredLabels, Clock clock) {
        this.cluster = cluster;
        this.client = client;
        this.reporter = new InventoryReporter(cluster);
        this.publish = publish;
        this.configuredLabels = Map.copyOf(configuredLabels);
        this.clock = clock;
    }

    /** Probes the member now and every {@code interval}, and starts the informers. */
    void start(ScheduledExecutorService probes, Duration interval, Duration resync) {
        probeNow();
        informers.add(inform(client.nodes().runnableInformer(resync.toMillis()), NodeSnapshot::of, reporter::node,
                node -> reporter.nodeGone(node.getMetadata().getName())));
        informers.add(inform(client.pods().inAnyNamespace().runnableInformer(resync.toMillis()), PodSnapshot::of, reporter::pod,
                pod -> reporter.podGone(pod.getMetadata().getNamespace(), pod.getMetadata().getName())));
        if (reservationSupported) {
            informers.add(inform(client.resources(Reservation.class).runnableInformer(resync.toMillis()), ReservationSnapshot::of,
                    reporter::reservation, reservation -> reporter.reservationGone(reservation.getMetadata().getName())));
        }
        probe = probes.scheduleWithFixedDelay(this::probeNow, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private <T extends HasMetadata, S> SharedIndexInformer<T> inform(SharedIndexInformer<T> informer, Function<T, S> snapshot,
                                                                     Function<S, Optional<MemberEventData>> observed,
                                                                     Function<T, Optional<MemberEventData>> gone) {
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                observed.apply(snapshot.apply(object)).ifPresent(publish);
            }

            @Override
            public void onUpdate(T old, T object) {
                observed.apply(snapshot.apply(object)).ifPresent(publish);
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                gone.apply(object).ifPresent(publish);
            }
        });
        informer.start();
        return informer;
    }

    /** Asks the member's API for its version and description; reports it reachable or not. */
    private void probeNow() {
        try {
            client.getKubernetesVersion();
            Map<String, String> labels = new LinkedHashMap<>();
            ConfigMap description = client.configMaps().inNamespace("kube-system").withName(MEMBER_CONFIG_MAP).get();
            if (description != null && description.getMetadata().getLabels() != null) {
                labels.putAll(description.getMetadata().getLabels());
            }
            labels.putAll(configuredLabels);
            if (!reservationSupported) {
                reservationSupported = servesReservations();
            }
            lastSeenHealthy = clock.instant();
            reporter.member(new MemberSnapshot(cluster, true, reservationSupported, labels, lastSeenHealthy)).ifPresent(this::publishMember);
        } catch (KubernetesClientException e) {
            reporter.member(new MemberSnapshot(cluster, false, reservationSupported, configuredLabels, lastSeenHealthy)).ifPresent(this::publishMember);
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s: probing the member failed", cluster);
        }
    }

    private void publishMember(MemberEventData member) {
        LOG.infof("member %s: %s", cluster, member.summary());
        publish.accept(member);
    }

    /** Whether the member serves koordinator's Reservation API: a list answers rather than 404. */
    private boolean servesReservations() {
        try {
            client.resources(Reservation.class).list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder().withLimit(1L).build());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw e;
        }
    }

    @Override
    public void close() {
        if (probe != null) {
            probe.cancel(false);
        }
        informers.forEach(SharedIndexInformer::close);
        client.close();
    }
}
