package dev.muster.statussync.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.statussync.core.inventory.InventoryReporter;
import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.statussync.core.mirror.MemberCopy;
import dev.muster.statussync.core.mirror.MemberPod;
import dev.muster.fleetclient.raw.MetadataLists;
import dev.muster.fleetclient.watch.SupervisedInformer;
import dev.muster.fleetclient.watch.WatchStatus;
import dev.muster.fleetclient.watch.Watches;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.AnyNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * Watches one member cluster: its nodes, pods, PyTorchJobs and (where the member serves them) reservations
 * through informers, and its API's reachability by a periodic probe. Inventory changes go to placement through
 * {@link InventoryReporter} (only real changes); jobs, their pods, node readiness and reachability go to the
 * job mirror. Informers reconnect and re-list by themselves after a watch gap, and are started again if they stop.
 */
final class MemberWatch implements AutoCloseable {

    /** The member's description, as member clusters (and the simulator) publish it. */
    static final String MEMBER_CONFIG_MAP = "muster-member";

    private static final Logger LOG = Logger.getLogger(MemberWatch.class);

    private final String cluster;
    private final KubernetesClient client;
    private final InventoryReporter reporter;
    private final MemberObserver observer;
    private final Map<String, String> configuredLabels;
    private final Clock clock;
    private final Watches watches;
    private final List<SupervisedInformer<?>> informers = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile SupervisedInformer<GenericKubernetesResource> jobs;
    private volatile SupervisedInformer<Pod> pods;
    private volatile SupervisedInformer<Node> nodes;
    private volatile SupervisedInformer<Reservation> reservations;
    private volatile long resyncMillis;
    private ScheduledFuture<?> probe;
    private volatile boolean reservationSupported;
    private volatile boolean reachable;
    private volatile Instant lastSeenHealthy;
    /** Whether the mirror has been told the member's jobs are listed (see {@link JobMirror#memberListed}). */
    private volatile boolean listed;
    /** What the inventory topic said the member held, once read; null before. */
    private volatile Set<String> reportedBefore;
    /** The kinds whose earlier reports have been checked against what this watch listed. */
    private final Set<String> checkedKinds = java.util.concurrent.ConcurrentHashMap.newKeySet();

    MemberWatch(String cluster, KubernetesClient client, MemberObserver observer, Map<String, String> configuredLabels, Watches watches,
                Clock clock) {
        this.cluster = cluster;
        this.watches = watches;
        this.client = client;
        this.reporter = new InventoryReporter(cluster);
        this.observer = observer;
        this.configuredLabels = Map.copyOf(configuredLabels);
        this.clock = clock;
    }

    /**
     * Probes the member now and every {@code interval}, and starts the informers, each supervised: one that stops (a
     * list that timed out under load, an object it cannot read) is started again, and counts as not watching meanwhile.
     */
    void start(ScheduledExecutorService probes, Duration interval, Duration resync) {
        resyncMillis = resync.toMillis();
        probeNow();
        nodes = watch("nodes", () -> client.nodes().runnableInformer(resyncMillis), () -> MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(Node.class)), null, new Handler<>() {
            @Override
            void observed(Node node) {
                NodeSnapshot snapshot = NodeSnapshot.of(node);
                reporter.node(snapshot).ifPresent(observer::inventory);
                observer.mirror(mirror -> mirror.nodeObserved(cluster, snapshot.name(), snapshot.ready()));
            }

            @Override
            void gone(Node node) {
                reporter.nodeGone(node.getMetadata().getName()).ifPresent(observer::inventory);
                observer.mirror(mirror -> mirror.nodeGone(cluster, node.getMetadata().getName()));
            }
        });
        pods = watch("pods", () -> client.pods().inAnyNamespace().runnableInformer(resyncMillis),
                () -> MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(Pod.class)), MemberPodCache::new, new Handler<>() {
            @Override
            void observed(Pod pod) {
                reporter.pod(PodSnapshot.of(pod)).ifPresent(observer::inventory);
                MemberPod.of(cluster, pod).ifPresent(memberPod -> observer.mirror(mirror -> mirror.podObserved(memberPod)));
            }

            @Override
            void gone(Pod pod) {
                reporter.podGone(pod.getMetadata().getNamespace(), pod.getMetadata().getName()).ifPresent(observer::inventory);
                observer.mirror(mirror -> mirror.podGone(cluster, pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
            }
        });
        jobs = watch("pytorchjobs", () -> jobsOperation().runnableInformer(resyncMillis), () -> MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(PyTorchJob.class)),
                MemberJobCache::new, new Handler<>() {
            @Override
            void observed(GenericKubernetesResource job) {
                Optional<PyTorchJob> typed = MemberJobCache.typed(job);
                if (typed.isEmpty()) {
                    if (MemberJobs.fleetUid(job).isPresent()) {
                        LOG.warnf("member %s: the status of job copy %s/%s cannot be read; it is judged again when it changes", cluster,
                                job.getMetadata().getNamespace(), job.getMetadata().getName());
                    }
                    return;
                }
                MemberCopy.of(cluster, typed.get()).ifPresent(copy -> observer.mirror(mirror -> mirror.copyObserved(copy)));
            }

            @Override
            void gone(GenericKubernetesResource job) {
                MemberJobs.fleetUid(job).ifPresent(uid -> observer.mirror(mirror -> mirror.copyGone(cluster, uid)));
            }
        });
        if (reservationSupported) {
            watchReservations(resyncMillis);
        }
        probe = probes.scheduleWithFixedDelay(this::probeNow, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void watchReservations(long resyncMillis) {
        reservations = watch("reservations", () -> client.resources(Reservation.class).runnableInformer(resyncMillis),
                () -> MetadataLists.of(client, ResourceDefinitionContext.fromResourceType(Reservation.class)), null, new Handler<>() {
            @Override
            void observed(Reservation reservation) {
                reporter.reservation(ReservationSnapshot.of(reservation)).ifPresent(observer::inventory);
            }

            @Override
            void gone(Reservation reservation) {
                reporter.reservationGone(reservation.getMetadata().getName()).ifPresent(observer::inventory);
            }
        });
    }

    /** What to do with an object an informer reports; a resync's unchanged objects are observed again and filtered downstream. */
    private abstract static class Handler<T> implements ResourceEventHandler<T> {

        abstract void observed(T object);

        abstract void gone(T object);

        @Override
        public void onAdd(T object) {
            observed(object);
        }

        @Override
        public void onUpdate(T old, T object) {
            observed(object);
        }

        @Override
        public void onDelete(T object, boolean finalStateUnknown) {
            gone(object);
        }
    }

    /** The member's PyTorchJobs, read in a form no object can fail. */
    private AnyNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> jobsOperation() {
        return client.genericKubernetesResources(ResourceDefinitionContext.fromResourceType(PyTorchJob.class)).inAnyNamespace();
    }

    private <T extends HasMetadata> SupervisedInformer<T> watch(String kind, Supplier<SharedIndexInformer<T>> informer, Watches.Lister lister,
                                                                Supplier<ItemStore<T>> store, Handler<T> handler) {
        SupervisedInformer<T> supervised = watches.supervise(cluster + " " + kind, informer, store, handler, lister);
        informers.add(supervised);
        return supervised.start();
    }

    /** Whether each of the member's watches runs now. */
    List<WatchStatus> watchStatuses() {
        return informers.stream().map(SupervisedInformer::status).toList();
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
                if (reservationSupported && probe != null && reservations == null) {
                    // The member serves reservations only now (the probe failed at start): watch them from now on.
                    watchReservations(resyncMillis);
                }
            }
            lastSeenHealthy = clock.instant();
            reachable(true, new MemberSnapshot(cluster, true, reservationSupported, labels, lastSeenHealthy));
            reportGoneSince();
            if (!listed && jobs != null && jobs.status().watching()) {
                listed = true;
                observer.mirror(mirror -> mirror.memberListed(cluster));
            }
        } catch (KubernetesClientException e) {
            reachable(false, new MemberSnapshot(cluster, false, reservationSupported, configuredLabels, lastSeenHealthy));
        } catch (RuntimeException e) {
            LOG.warnf(e, "%s: probing the member failed", cluster);
        }
    }

    /**
     * What earlier watches of the member reported (the inventory topic read from its beginning): whatever of it the member
     * no longer shows was removed while nobody watched, and is reported gone once this watch has listed it.
     */
    void reportedBefore(Set<String> keys) {
        reportedBefore = keys;
        reportGoneSince();
    }

    private void reportGoneSince() {
        Set<String> before = reportedBefore;
        if (before == null) {
            return;
        }
        goneSince(before, InventoryReporter.NODE, nodes, node -> InventoryReporter.nodeKey(node.getMetadata().getName()));
        goneSince(before, InventoryReporter.POD, pods,
                pod -> InventoryReporter.podKey(pod.getMetadata().getNamespace(), pod.getMetadata().getName()));
        goneSince(before, InventoryReporter.RESERVATION, reservations,
                reservation -> InventoryReporter.reservationKey(reservation.getMetadata().getName()));
    }

    private <T extends HasMetadata> void goneSince(Set<String> before, String kind, SupervisedInformer<T> informer, Function<T, String> key) {
        if (informer == null || checkedKinds.contains(kind)) {
            return;
        }
        informer.listIfWatching().ifPresent(shown -> {
            if (checkedKinds.add(kind)) {
                int gone = reporter.goneSince(before, kind, shown.stream().map(key).collect(Collectors.toSet()), observer::inventory);
                if (gone > 0) {
                    LOG.infof("member %s: %d of the %ss reported before this watch began are gone (removed while none watched); reported gone",
                            cluster, gone, kind);
                }
            }
        });
    }

    private void reachable(boolean isReachable, MemberSnapshot snapshot) {
        reachable = isReachable;
        reporter.member(snapshot).ifPresent(member -> {
            LOG.infof("member %s: %s", cluster, member.summary());
            observer.inventory(member);
        });
        observer.mirror(mirror -> mirror.memberObserved(cluster, isReachable));
    }

    /** Whether the member's API answered the latest probe. */
    boolean reachable() {
        return reachable;
    }

    /** When the member's API last answered, or null if it never did. */
    Instant lastSeenHealthy() {
        return lastSeenHealthy;
    }

    KubernetesClient client() {
        return client;
    }

    String cluster() {
        return cluster;
    }

    /** The PyTorchJobs on the member as last observed (the member's own jobs too), with their metadata and status. */
    List<PyTorchJob> jobs() {
        return jobs == null ? List.of() : jobs.list().stream().map(MemberJobCache::typed).flatMap(Optional::stream).toList();
    }

    /** The nodes of the member as last observed. */
    List<Node> nodes() {
        return nodes == null ? List.of() : nodes.list();
    }

    /** Whether the member serves koordinator's reservations. */
    boolean reservationSupported() {
        return reservationSupported;
    }

    /** The pods on the member as last observed, with what status sync reads of them (see {@link MemberPodCache}). */
    List<Pod> pods() {
        return pods == null ? List.of() : pods.list();
    }

    /**
     * The member's copy of a job in full, read from the member (the informer keeps only what status sync reads of
     * it, see {@link MemberJobCache}); a member that does not answer throws {@link KubernetesClientException}.
     */
    Optional<PyTorchJob> job(String namespace, String name) {
        return Optional.ofNullable(client.resources(PyTorchJob.class).inNamespace(namespace).withName(name).get());
    }

    /** Whether the member serves koordinator's Reservation API: a list answers rather than 404. */
    private boolean servesReservations() {
        try {
            client.resources(Reservation.class).list(new ListOptionsBuilder().withLimit(1L).build());
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
        // The client belongs to MemberClients, which closes it.
        informers.forEach(SupervisedInformer::close);
    }
}
