package dev.muster.queue.kafka;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Default;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.model.queue.JobQueueView;
import dev.muster.model.quota.ConfigInForce;
import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.queue.config.QueueConfig;
import dev.muster.queue.core.queueing.FleetApiJob;
import dev.muster.queue.core.queueing.FleetApiSubmissions;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.queueing.StartTimes;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.runtime.CompactedTopic;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.runtime.InputPositions;
import dev.muster.runtime.RestoreGate;
import dev.muster.runtime.StandbyWarmUp;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;

/**
 * Owns the service's {@link FleetQueue} and rebuilds it from the compacted {@link Topics#QUEUE_STATE} topic
 * whenever this instance is given the input partitions: at start, and when it takes over from another
 * instance. The state topic is written in the same transactions as the decisions and the consumed offsets,
 * so what it holds is exactly the state after the last committed input.
 */
@ApplicationScoped
@Default
@Identifier(QueueStateStore.REBALANCE_LISTENER)
public class QueueStateStore implements KafkaConsumerRebalanceListener, FleetApiSubmissions {

    static final String REBALANCE_LISTENER = "queue-state-restore";
    private static final Logger LOG = Logger.getLogger(QueueStateStore.class);

    private final QueueConfig config;
    private final QueueMetrics metrics;
    private final Map<String, Object> kafkaConnection;
    private final Clock clock = Clock.systemUTC();
    private FleetQueue queue;
    private final RestoreGate restores = new RestoreGate(this::restore);
    /** Where the inputs stood at the last committed transaction, kept with the state and restored with it. */
    private final InputPositions positions = new InputPositions(Topics.QUEUE_STATE, Set.of());
    /** A standby's run of a scratch queue, so that a takeover does not pay for the JVM's first restore. */
    private final StandbyWarmUp warmUp;
    private final AtomicBoolean replaying = new AtomicBoolean();
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "muster-start-times");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Whether the state this instance holds is the queue's, restored from the log since it was last given the inputs: not
     * before (a restart, a standby), nor once they were taken from it (a session that expired), and its views say so
     * rather than show empty or stale queues.
     */
    private volatile boolean restored;

    QueueStateStore(QueueConfig config, QueueMetrics metrics, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration) {
        this.config = config;
        this.metrics = metrics;
        this.kafkaConnection = CompactedTopic.connection(kafkaConfiguration);
        this.queue = new FleetQueue(settings(), clock).batched();
        // The state topic is read as a takeover reads it, and thrown away.
        this.warmUp = new StandbyWarmUp("queue-service", () -> {
            CompactedTopic.latestByKey(kafkaConnection, Topics.QUEUE_STATE);
            TakeoverWarmUp.run(settings());
        });
        metrics.observe(this::snapshot);
    }

    /** Whether the queue's state has been restored from the log since this instance was given the inputs (see {@link #restored}). */
    public boolean restored() {
        return restored;
    }

    private synchronized QueueMetrics.Snapshot snapshot() {
        return QueueMetrics.snapshotOf(queue.quota(), clock.instant());
    }

    /**
     * Where one job stands now, for the job view, with its start-time estimate while it waits, worked out again when
     * stale.
     */
    public Optional<JobQueueView> view(String namespace, String name) {
        Optional<JobQueueView> view;
        StartTimes startTimes;
        synchronized (this) {
            view = queue.view(namespace, name);
            startTimes = queue.startTimes();
        }
        if (view.isPresent()) {
            refreshStartTimes(false);
        }
        return view.map(startTimes::annotate);
    }

    /**
     * Works the start-time estimates out again, when stale or {@code always}. The replay runs on a copy, outside the lock
     * the consumer takes, so that a deep queue's estimate does not hold up its decisions; the next tick tells them.
     */
    void refreshStartTimes(boolean always) {
        // One replay at a time: views asking meanwhile read the last estimates rather than start another second of work each.
        if (!replaying.compareAndSet(false, true)) {
            return;
        }
        try {
            replay(always);
        } finally {
            replaying.set(false);
        }
    }

    private void replay(boolean always) {
        Optional<StartTimes.Inputs> inputs = Optional.empty();
        StartTimes startTimes;
        Instant now = clock.instant();
        synchronized (this) {
            startTimes = queue.startTimes();
            if (always || startTimes.stale(now)) {
                inputs = queue.startTimeInputs();
            }
        }
        inputs.ifPresent(copied -> startTimes.compute(copied, now));
    }

    private void startRefreshing(@Observes StartupEvent startup) {
        long every = config.startTimeRefresh().toMillis();
        if (every > 0) {
            refresher.scheduleWithFixedDelay(() -> {
                try {
                    refreshStartTimes(true);
                } catch (RuntimeException e) {
                    // A task that throws is not run again: the estimates would stop for good.
                    LOG.warnf(e, "working out the start-time estimates failed; trying again in %s", config.startTimeRefresh());
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stopRefreshing() {
        refresher.shutdownNow();
    }

    @Override
    public synchronized List<FleetApiJob> undeleted() {
        return queue.fleetApiObjects();
    }

    /** Each quota node's usage now, with when the next job under it is expected to start, for the queues view. */
    public List<QuotaUsageRow> usageReport() {
        refreshStartTimes(false);
        synchronized (this) {
            return queue.usageReport();
        }
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            positions.assigned(consumer, partitions);
            restores.assigned();
        } else {
            // An owner whose session expired (paused, cut off from the broker) comes back as a standby: what it holds is
            // no longer the queue, and its views must not show it as if it were.
            restored = false;
            restores.standingBy();
            LOG.info("standing by: another instance owns the inputs");
            warmUp.standingBy();
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // Lost without a handover: another instance may be deciding already.
        restored = false;
        LOG.warnf("lost the inputs (%d partitions) without giving them up: the queue's views answer 503 until it owns them again",
                partitions.size());
    }

    /** Where the queue's inputs stood at its last committed transaction, for the relay of its inputs. */
    InputPositions positions() {
        return positions;
    }

    /** When the relay of the queue's inputs may restore the queue: never while one of its transactions is open. */
    RestoreGate restores() {
        return restores;
    }

    /** Hands one consumed event to the queue; serialized with restores, which may run on the consumer's thread. */
    List<MusterEvent> handle(MusterEvent event) {
        long start = System.nanoTime();
        List<MusterEvent> out;
        QuotaAdmission quota;
        synchronized (this) {
            out = queue.handle(event);
            quota = queue.quota();
        }
        // Outside the lock: a scrape reading a gauge takes this lock, and registering meters takes the registry's.
        metrics.recorded(out, System.nanoTime() - start, quota);
        return out;
    }

    /** The decisions of the one pass the batch's events owe the quota core. */
    List<MusterEvent> batchEnded() {
        long start = System.nanoTime();
        List<MusterEvent> out;
        QuotaAdmission quota;
        synchronized (this) {
            out = queue.batchEnded();
            quota = queue.quota();
        }
        metrics.recorded(out, System.nanoTime() - start, quota);
        return out;
    }

    /** A configuration change that could not be read: refused and recorded, as an invalid one is. */
    synchronized List<MusterEvent> refuseUnreadable(ConfigRef object, List<String> reasons) {
        return queue.refuseUnreadable(object, reasons);
    }

    /** Which tree is in force and the refused changes of configuration, for the queues view. */
    public synchronized ConfigInForce configInForce() {
        return new ConfigInForce(queue.treeInForce().map(tree -> tree.getMetadata().getNamespace() + "/"
                + tree.getMetadata().getName() + " (resourceVersion " + tree.getMetadata().getResourceVersion() + ")").orElse(null),
                queue.refusals().stream().map(refusal -> new ConfigInForce.Refusal(refusal.object().kind(),
                        refusal.object().namespace(), refusal.object().name(), refusal.reasons(), refusal.at())).toList());
    }

    synchronized List<Produced> drainState() {
        return queue.drainState().stream().map(entry -> new Produced(Topics.QUEUE_STATE, entry.key(), entry.value())).toList();
    }

    /** A batch's transaction was aborted: the queue holds decisions the log does not, and starts again from the log. */
    void restoreAfterAbort() {
        restore();
    }

    private void restore() {
        QuotaAdmission quota;
        synchronized (this) {
            quota = restoreLocked();
        }
        metrics.recorded(List.of(), 0, quota);
    }

    private QuotaAdmission restoreLocked() {
        long start = System.nanoTime();
        Map<String, byte[]> latest = positions.restore(CompactedTopic.latestByKey(kafkaConnection, Topics.QUEUE_STATE));
        List<Entry> entries = new ArrayList<>();
        latest.forEach((key, value) -> entries.add(new Entry(key, value)));
        queue = FleetQueue.restore(settings(), clock, entries).batched();
        restored = true;
        LOG.infof("queue state restored from %s: %d records, %d tracked jobs, in %d ms", Topics.QUEUE_STATE, entries.size(),
                queue.jobs().size(), (System.nanoTime() - start) / 1_000_000);
        return queue.quota();
    }

    private QuotaSettings settings() {
        // Named by its property here: the core's own check knows only its field.
        if (config.reasonRefresh().isNegative()) {
            throw new IllegalArgumentException("muster.queue.reason-refresh must not be negative, got " + config.reasonRefresh());
        }
        return new QuotaSettings(config.starvationAge(), config.giveBackBackoff(), config.strictFifoLeaves().orElse(Set.of()),
                config.reasonRefresh());
    }
}
