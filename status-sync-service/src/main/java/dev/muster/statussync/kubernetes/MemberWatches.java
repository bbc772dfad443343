package dev.muster.statussync.kubernetes;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;
import dev.muster.fleetclient.watch.WatchStatus;
import dev.muster.fleetclient.watch.Watches;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.Topics;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.job.PyTorchJob;
import dev.muster.runtime.Acknowledged;
import dev.muster.runtime.CompactedTopic;
import dev.muster.statussync.config.Channels;
import dev.muster.statussync.config.StatusSyncConfig;
import dev.muster.statussync.core.inventory.ReportedInventory;
import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.statussync.core.mirror.MirrorDecisions;
import dev.muster.statussync.metrics.StatusSyncMetrics;
import io.fabric8.kubernetes.api.model.Pod;
import io.smallrye.common.annotation.Identifier;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Watches every configured member cluster: reports its inventory to {@link Topics#INVENTORY}, keyed by cluster
 * so that one member's reports stay in order, and its jobs, pods, nodes and reachability to the job mirror.
 * Also answers what is on each member now, for the per-member views.
 * <p>
 * Only the active instance watches ({@link #watchMembers}, {@link #stopWatchingMembers}): a standby that watched
 * too would report every member's inventory and judge every copy a second time.
 */
@ApplicationScoped
public class MemberWatches {

    public static final String SOURCE = JobMirror.SOURCE;
    private static final Logger LOG = Logger.getLogger(MemberWatches.class);

    private final StatusSyncConfig config;
    private final MemberClients clients;
    private final MirrorObservations engine;
    private final StatusSyncMetrics metrics;
    private final Emitter<byte[]> inventory;
    private final Watches supervised;
    private final Clock clock = Clock.systemUTC();
    private final Map<String, MemberWatch> watches = new TreeMap<>();
    private ScheduledExecutorService probes;
    private InventoryDelivery delivery;
    private volatile boolean stopping;
    private MemberObserver observer;
    /** Whether this instance is the active one, which watches the members. Guarded by {@link #watches}. */
    private boolean watching;
    /**
     * Whether every member has been probed and its watches started since this instance became the active one. Until
     * then it is not ready: a member cut off meanwhile would be judged by nobody. Guarded by {@link #watches}.
     */
    private boolean scanned;
    /**
     * Whether the consumer group has said yet if this instance is the active one or a standby: until then it watches
     * nothing and judges nothing, and is not ready. Guarded by {@link #watches}.
     */
    private boolean assigned;
    private final Map<String, Object> kafkaConnection;
    /**
     * What the inventory topic said each member held when this instance became the active one; null until read. Guarded
     * by {@link #watches}.
     */
    private ReportedInventory reportedBefore;
    /** Reads the inventory topic off the probes' thread (a long topic takes seconds), and tries again after a failure. */
    private final ScheduledExecutorService reportedBeforeReader = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "inventory-reported-before");
        thread.setDaemon(true);
        return thread;
    });

    MemberWatches(StatusSyncConfig config, MemberClients clients, MirrorObservations engine, StatusSyncMetrics metrics, Watches supervised,
                  @Channel(Channels.INVENTORY) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> inventory,
                  @Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration) {
        this.config = config;
        this.kafkaConnection = CompactedTopic.connection(kafkaConfiguration);
        this.supervised = supervised;
        // Readiness counts the watches of every member whose API answers: one that does not is failed over from, as
        // its jobs' policies say, which is status sync doing its work; a member that answers but is not watched is not.
        supervised.register(this::watchStatuses);
        this.clients = clients;
        this.engine = engine;
        this.metrics = metrics;
        this.inventory = inventory;
    }

    void start(@Observes StartupEvent startup) {
        probes = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "member-probes");
            thread.setDaemon(true);
            return thread;
        });
        delivery = new InventoryDelivery(this::sendOnce, probes, new RetryPolicy(failure -> true, config.eventRetries().backoff(),
                config.eventRetries().maxBackoff()), () -> stopping);
        observer = new MemberObserver() {
            @Override
            public void inventory(MemberEventData data) {
                publish(data);
            }

            @Override
            public void mirror(Function<JobMirror, MirrorDecisions> observation) {
                engine.observe(observation);
            }
        };
        if (config.membersDirectory().isPresent()) {
            long every = config.membersRescan().toMillis();
            probes.scheduleWithFixedDelay(this::rescan, every, every, TimeUnit.MILLISECONDS);
        } else if (config.members().isEmpty()) {
            LOG.info("no member clusters configured (muster.status-sync.members.<name>.kubeconfig or muster.status-sync.members-directory): "
                    + "nothing to watch");
        }
    }

    /** This instance became the active one: every member is watched from now on (listed afresh, on another thread). */
    public void watchMembers() {
        synchronized (watches) {
            if (watching) {
                return;
            }
            watching = true;
            scanned = false;
            assigned = true;
            reportedBefore = null;
        }
        probes.execute(this::rescan);
        reportedBeforeReader.execute(this::readReportedBefore);
    }

    /**
     * Reads the inventory topic from its beginning, as placement does, and gives each watch what it says the member holds:
     * what was removed while no instance watched is then reported gone. Off the probes' thread (a long topic takes
     * seconds to read); tried again while the broker does not answer.
     */
    private void readReportedBefore() {
        synchronized (watches) {
            if (!watching || stopping) {
                return;
            }
        }
        try {
            ReportedInventory read = new ReportedInventory();
            CompactedTopic.readAll(kafkaConnection, Topics.INVENTORY, record -> {
                try {
                    if (record.value() != null && EventSerde.deserialize(record.value()) instanceof MemberEvent report
                            && SOURCE.equals(report.source())) {
                        read.apply(report.data());
                    }
                } catch (MalformedEventException e) {
                    // Not a report of status sync's: placement refuses it too.
                }
            });
            List<MemberWatch> watched;
            synchronized (watches) {
                if (!watching) {
                    return;
                }
                reportedBefore = read;
                watched = List.copyOf(watches.values());
            }
            watched.forEach(watch -> watch.reportedBefore(read.of(watch.cluster())));
        } catch (RuntimeException e) {
            LOG.warnf("reading what was reported of the members before (%s) failed; tried again in 10 s: %s", Topics.INVENTORY, e.getMessage());
            reportedBeforeReader.schedule(this::readReportedBefore, 10, TimeUnit.SECONDS);
        }
    }

    /** This instance is a standby now: no member is watched, and none is reported gone (the active watches them). */
    public void stopWatchingMembers() {
        synchronized (watches) {
            watching = false;
            assigned = true;
        }
        // On the thread that starts watches, so that none being started now outlives this.
        probes.execute(() -> {
            List<String> watched;
            synchronized (watches) {
                watched = List.copyOf(watches.keySet());
            }
            watched.forEach(this::unwatch);
        });
    }

    /** Starts watching members that joined and stops watching those that left, while this instance is the active one. */
    private void rescan() {
        synchronized (watches) {
            if (!watching) {
                return;
            }
        }
        try {
            MemberClients.Members refreshed = clients.refresh();
            Map<String, Path> members = refreshed.kubeconfigs();
            for (String cluster : refreshed.changed()) {
                // The same member by another endpoint or credentials: watched again from scratch, not a member leaving.
                if (unwatch(cluster)) {
                    LOG.infof("member %s: its kubeconfig changed; watching it again with the new one", cluster);
                }
            }
            List<String> left;
            synchronized (watches) {
                left = watches.keySet().stream().filter(cluster -> !members.containsKey(cluster)).toList();
            }
            left.forEach(this::stopWatching);
            members.forEach((cluster, kubeconfig) -> {
                synchronized (watches) {
                    if (watches.containsKey(cluster)) {
                        return;
                    }
                }
                startWatching(cluster, kubeconfig);
            });
            synchronized (watches) {
                scanned = true;
            }
        } catch (RuntimeException e) {
            LOG.warnf("reading the members failed; tried again in %s: %s", config.membersRescan(), e.getMessage());
        }
    }

    private void startWatching(String cluster, Path kubeconfig) {
        try {
            MemberWatch watch = new MemberWatch(cluster, clients.client(cluster).orElseThrow(), observer, clients.labels(cluster), supervised,
                    clock);
            synchronized (watches) {
                if (!watching) {
                    return;
                }
                watches.put(cluster, watch);
            }
            watch.start(probes, config.healthInterval(), config.resync());
            ReportedInventory before;
            synchronized (watches) {
                before = reportedBefore;
            }
            if (before != null) {
                watch.reportedBefore(before.of(cluster));
            }
            metrics.observeMember(cluster, watch::reachable, watch::lastSeenHealthy);
            LOG.infof("watching member %s (kubeconfig %s)", cluster, kubeconfig);
        } catch (RuntimeException e) {
            LOG.warnf("member %s cannot be watched (kubeconfig %s): %s", cluster, kubeconfig, e.getMessage());
        }
    }

    /** Stops the member's watch and forgets its gauges; false when it was not watched. */
    private boolean unwatch(String cluster) {
        MemberWatch watch;
        synchronized (watches) {
            watch = watches.remove(cluster);
        }
        if (watch == null) {
            return false;
        }
        watch.close();
        metrics.forgetMember(cluster);
        return true;
    }

    private void stopWatching(String cluster) {
        if (unwatch(cluster)) {
            publish(new MemberEventData.MemberRemoved(cluster));
            engine.observe(mirror -> mirror.memberRemoved(cluster));
            LOG.infof("member %s left the fleet: no longer watched; its jobs fail over as their policies say", cluster);
        }
    }

    /**
     * Each watched member's health now.
     *
     * @param lastSeenHealthy when its API last answered, or null if it never did
     */
    public record MemberHealth(String cluster, boolean reachable, Instant lastSeenHealthy, boolean reservationSupported, int nodes,
                               List<String> notReadyNodes) {
    }

    /** Each watched member's health now, by cluster. */
    public List<MemberHealth> health() {
        synchronized (watches) {
            return watches.values().stream().map(watch -> new MemberHealth(watch.cluster(), watch.reachable(), watch.lastSeenHealthy(),
                    watch.reservationSupported(), watch.nodes().size(), watch.nodes().stream()
                    .filter(node -> !NodeSnapshot.of(node).ready()).map(node -> node.getMetadata().getName()).sorted().toList())).toList();
        }
    }

    private List<WatchStatus> watchStatuses() {
        synchronized (watches) {
            if (!assigned) {
                return List.of(new WatchStatus("members", false, "not yet assigned the job events: neither the active instance nor a standby"));
            }
            if (watching && !scanned) {
                return List.of(new WatchStatus("members", false, "active since moments ago; the members are being probed and watched"));
            }
            return watches.values().stream().filter(MemberWatch::reachable).flatMap(watch -> watch.watchStatuses().stream()).toList();
        }
    }

    /**
     * Why this instance's views of the members would not be the members as they are now: it does not watch them
     * (starting, or a standby: the active instance does), or it has just begun to and has not listed them all yet.
     * Empty when it watches them.
     */
    public Optional<String> notWatchingBecause() {
        synchronized (watches) {
            if (!watching) {
                return Optional.of("this status sync instance does not watch the members (it is starting, or a standby): ask again in a moment");
            }
            if (!scanned) {
                return Optional.of("this status sync instance has just begun to watch the members and is listing them: ask again in a moment");
            }
            return Optional.empty();
        }
    }

    /** The PyTorchJobs on each watched member now, by cluster. */
    public Map<String, List<PyTorchJob>> jobs() {
        Map<String, List<PyTorchJob>> jobs = new TreeMap<>();
        synchronized (watches) {
            watches.forEach((cluster, watch) -> jobs.put(cluster, watch.jobs()));
        }
        return jobs;
    }

    /** The pods on each watched member now, by cluster. */
    public Map<String, List<Pod>> pods() {
        Map<String, List<Pod>> pods = new TreeMap<>();
        synchronized (watches) {
            watches.forEach((cluster, watch) -> pods.put(cluster, watch.pods()));
        }
        return pods;
    }

    /**
     * One member's copy of a job in full, as the member has it now; empty for an unknown cluster or job. A member
     * that does not answer throws {@link io.fabric8.kubernetes.client.KubernetesClientException}.
     */
    public Optional<PyTorchJob> job(String cluster, String namespace, String name) {
        MemberWatch watch;
        synchronized (watches) {
            watch = watches.get(cluster);
        }
        return watch == null ? Optional.empty() : watch.job(namespace, name);
    }

    /** Whether this cluster is watched. */
    public boolean watches(String cluster) {
        synchronized (watches) {
            return watches.containsKey(cluster);
        }
    }

    private void publish(MemberEventData data) {
        delivery.send(MemberEvent.create(SOURCE, clock.instant(), data));
    }

    /** One try: done once the broker has the report, failed when the producer gave up on it. */
    private CompletionStage<Void> sendOnce(MemberEvent report) {
        return Acknowledged.send(inventory, KafkaRecord.of(Topics.INVENTORY, report.key(), EventSerde.serialize(report)), () -> { });
    }

    void stop(@Observes ShutdownEvent shutdown) {
        stopping = true;
        synchronized (watches) {
            watches.values().forEach(MemberWatch::close);
        }
        if (probes != null) {
            probes.shutdownNow();
        }
        reportedBeforeReader.shutdownNow();
    }
}
