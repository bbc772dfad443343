package dev.muster.statussync.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobShown;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobCondition;
import dev.muster.runtime.Acknowledged;
import dev.muster.runtime.crash.CrashPoint;
import dev.muster.runtime.tracing.JobTraces;
import dev.muster.statussync.config.Channels;
import dev.muster.statussync.config.StatusSyncConfig;
import dev.muster.statussync.core.fleet.FleetProjection;
import dev.muster.statussync.core.fleet.FleetWrite;
import dev.muster.statussync.core.member.MemberStatusTracker;
import dev.muster.statussync.core.mirror.JobMirror;
import dev.muster.statussync.core.mirror.MirrorDecisions.FleetStatus;
import dev.muster.statussync.core.mirror.MirrorDecisions;
import dev.muster.statussync.core.mirror.MirrorSettings;
import dev.muster.statussync.core.mirror.RememberedCopy;
import dev.muster.statussync.kubernetes.FleetWriter;
import dev.muster.statussync.kubernetes.MemberClients;
import dev.muster.statussync.kubernetes.MemberPurger;
import dev.muster.statussync.kubernetes.MirrorObservations;
import dev.muster.statussync.metrics.StatusSyncMetrics;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Runs the status-sync core for the service: the {@link JobMirror} fed by member observations and clock ticks,
 * and the {@link FleetProjection} fed by consumed events, one call at a time. Their events go to
 * {@link Topics#MEMBER_STATUS}; their fleet and member writes run in order for each job (several jobs' at
 * once), so a later status never lands before an earlier one, and a status superseded before its write ran is
 * not written. A write the fleet API does not answer is tried again until it lands (see {@link JobOrderedWrites}).
 */
@ApplicationScoped
public class MirrorEngine implements MirrorObservations {

    private static final Logger LOG = Logger.getLogger(MirrorEngine.class);
    /** A member condition older than this when first seen is a re-list, not a change: its lag is measured from when it was seen. */
    private static final Duration FRESH_CHANGE = Duration.ofMinutes(5);

    private final Object lock = new Object();
    private final Clock clock = Clock.systemUTC();
    /** A fresh one each time this instance becomes the active one: it judges from what the members show then. */
    private JobMirror mirror;
    /** Whether this instance is the active one; a standby's observations (none should come) are dropped. Guarded by {@link #lock}. */
    private boolean active;
    private final FleetProjection projection = new FleetProjection();
    private final MemberStatusTracker unconfigured;
    private final FleetWriter fleet;
    private final MemberPurger purger;
    private final StatusSyncMetrics metrics;
    private final StatusSyncConfig config;
    private final Emitter<byte[]> memberStatus;
    private final JobOrderedWrites writes;
    private final JobTraces traces;
    private final RememberedCopiesTopic remembered;
    private final UnconsumedFailovers unconsumedFailovers;
    /** Where to halt for a crash test (see {@link StatusSyncConfig#crashAfter}); nowhere otherwise. */
    private final CrashPoint crashPoint;
    /** Runs the mirror's ticks, and sends again the events the broker did not take. */
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(JobOrderedWrites.daemon("status-ticker"));
    private final EventDelivery delivery;
    /** The copies (by cluster, job and copy uid) whose purge waits for their job's events to reach the broker. */
    private final Set<String> purgesAwaitingEvents = ConcurrentHashMap.newKeySet();
    /** Set once the service stops: what fails from then on fails for the stop, not for what was consumed. */
    private volatile boolean stopping;

    MirrorEngine(StatusSyncConfig config, MemberClients members, FleetWriter fleet, MemberPurger purger, StatusSyncMetrics metrics, JobTraces traces,
                 RememberedCopiesTopic remembered, UnconsumedFailovers unconsumedFailovers, @Channel(Channels.MEMBER_STATUS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> memberStatus) {
        this.config = config;
        this.traces = traces;
        this.remembered = remembered;
        this.unconsumedFailovers = unconsumedFailovers;
        this.mirror = newMirror();
        this.unconfigured = new MemberStatusTracker(members::isMember, clock);
        this.fleet = fleet;
        this.purger = purger;
        this.metrics = metrics;
        this.memberStatus = memberStatus;
        this.crashPoint = new CrashPoint(config.crashAfter());
        // The fleet API gone for a while loses nothing: a write is tried again until it lands or is refused for good.
        this.writes = new JobOrderedWrites(config.fleetWrites().parallel(), "status-writes", new JobOrderedWrites.RetryPolicy(
                MirrorEngine::passing, config.fleetWrites().retryBackoff(), config.fleetWrites().maxRetryBackoff()));
        this.delivery = new EventDelivery(this::sendOnce, ticker, new JobOrderedWrites.RetryPolicy(failure -> true,
                config.eventRetries().backoff(), config.eventRetries().maxBackoff()), () -> stopping);
    }

    private JobMirror newMirror() {
        return new JobMirror(new MirrorSettings(config.failover().maxFailovers(), config.failover().purgeRetry()), clock);
    }

    /**
     * This instance became the active one: it judges afresh from the members' objects, as after a restart, and, for a
     * member that does not answer, from the copies its predecessor recorded, read back before any member is observed.
     */
    void activate(Map<TopicPartition, Long> unconsumedStatus) {
        synchronized (lock) {
            if (!active) {
                mirror = newMirror();
                // Both reads wait on the broker alone: side by side, a takeover waits for the longer, not for both.
                CompletableFuture<List<JobEvent>> failovers = CompletableFuture.supplyAsync(() -> unconsumedFailovers.read(unconsumedStatus));
                restoreRememberedCopies();
                readUnconsumedFailovers(failovers.join());
                active = true;
            }
        }
    }

    private void restoreRememberedCopies() {
        try {
            List<RememberedCopy> copies = remembered.restore();
            MirrorDecisions decided = MirrorDecisions.none();
            for (RememberedCopy copy : copies) {
                decided = decided.and(mirror.remembered(copy));
            }
            carryOut(decided);
            LOG.infof("%d member copies read back from %s: judged while their members do not answer", copies.size(), Topics.STATUS_SYNC_STATE);
        } catch (RuntimeException e) {
            LOG.warnf("%s could not be read (%s): a member that does not answer now has its jobs judged once it answers",
                    Topics.STATUS_SYNC_STATE, e.getMessage());
        }
    }

    /** A failover its predecessor published and did not live to record: the copy it left is never taken for the job's. */
    private void readUnconsumedFailovers(List<JobEvent> failovers) {
        MirrorDecisions decided = MirrorDecisions.none();
        for (JobEvent failover : failovers) {
            decided = decided.and(mirror.handle(failover));
        }
        carryOut(decided);
        if (!failovers.isEmpty()) {
            LOG.infof("%d failovers read on %s before its consumer reads them", failovers.size(), Topics.MEMBER_STATUS);
        }
    }

    /** This instance stands by: it judges nothing until it is the active one again. */
    void deactivate() {
        synchronized (lock) {
            active = false;
        }
    }

    void start(@Observes StartupEvent startup) {
        long interval = config.tickInterval().toMillis();
        ticker.scheduleAtFixedRate(() -> observe(JobMirror::tick), interval, interval, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        stopping = true;
        ticker.shutdownNow();
        writes.close();
    }

    /**
     * Whether the service is stopping: the writes of a record consumed now never complete (see {@link JobOrderedWrites}),
     * and a failure is the stop's, so the record is left for the next instance to read again.
     */
    public boolean stopping() {
        return stopping;
    }

    /** An observation of a member (or a tick); the decisions it leads to are published and carried out. */
    @Override
    public void observe(Function<JobMirror, MirrorDecisions> observation) {
        try {
            synchronized (lock) {
                if (active) {
                    carryOut(observation.apply(mirror));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("the job mirror failed on an observation; the next one or the next tick tries again", e);
        }
    }

    /**
     * A consumed job or configuration event: projected onto the fleet and judged by the mirror. Its fleet writes
     * are queued; the result completes once they are done (failed ones logged), so that its offset is committed
     * only after them.
     */
    public CompletableFuture<Void> consume(MusterEvent event) {
        synchronized (lock) {
            // The mirror first: a preempted job's copy stops being what the fleet shows of it.
            MirrorDecisions decided = mirror.handle(event);
            // A job whose member copy the mirror already shows (status sync read the member before this event, as after a
            // restart or with a backlog) keeps that status: a Queuing decided earlier must not overwrite it.
            List<FleetWrite> projected = projection.handle(event).stream()
                    .filter(write -> !(write instanceof FleetWrite.SetCondition condition && FleetProjection.QUEUING.equals(condition.type())
                            && !mirror.mirroredStatus(condition.job().uid()).statuses().isEmpty()))
                    .toList();
            // The fleet job of a Kafka submission can be created after its member's status was mirrored (members are
            // watched as they change, events read in turn), when that status had nowhere to go: it is written after it.
            for (FleetWrite write : projected) {
                if (write instanceof FleetWrite.CreateJob create) {
                    decided = decided.and(mirror.mirroredStatus(create.job().uid()));
                }
            }
            unconfigured.handle(event).forEach(this::publish);
            CompletableFuture<Void> written = CompletableFuture.allOf(projected.stream()
                    .collect(Collectors.groupingBy(FleetWrite::orderKey, LinkedHashMap::new, Collectors.toList()))
                    .entrySet().stream()
                    .flatMap(writesOfKey -> writesOfKey.getValue().stream().map(write -> submit(writesOfKey.getKey(), write)
                            .whenComplete((done, failure) -> {
                                if (failure != null) {
                                    LOG.warnf("fleet write %s refused: %s", write.getClass().getSimpleName(), failure.getMessage());
                                }
                            })))
                    .toArray(CompletableFuture[]::new));
            carryOut(decided);
            return written;
        }
    }

    /**
     * Queues one fleet write in its key's order. A QueueUnit write puts the whole unit: one queued behind a later one of
     * the same job is skipped (after an outage a job's unit would otherwise be written Enqueued, Dequeued and Running).
     */
    private CompletableFuture<Void> submit(String key, FleetWrite write) {
        if (write instanceof FleetWrite.CreateJob create) {
            return show(key, create);
        }
        return write instanceof FleetWrite.PutQueueUnit ? writes.submitLatest(key, "QueueUnit", write, fleet::write)
                : writes.submit(key, () -> fleet.write(write));
    }

    /**
     * Writes the fleet object of a job submitted on Kafka, then tells the queue it is there ({@link JobShown}): from then
     * on its deletion deletes the job, even one made while the queue was down. Done once the broker has that too, so a
     * crash before it reads the submission again, finds the object there and tells it again.
     */
    private CompletableFuture<Void> show(String key, FleetWrite.CreateJob create) {
        AtomicReference<String> objectUid = new AtomicReference<>();
        return writes.submit(key, () -> objectUid.set(fleet.createJob(create).orElse(null))).thenCompose(created -> {
            if (objectUid.get() == null) {
                return CompletableFuture.completedFuture(null);
            }
            return publish(JobEvent.observed(JobMirror.SOURCE, create.job(), clock.instant(), new JobShown(objectUid.get()), objectUid.get()));
        });
    }

    /** Call under the lock: events go out now, writes are queued in the order decided, and so are the copies' records. */
    private void carryOut(MirrorDecisions decisions) {
        List<CompletableFuture<Void>> published = decisions.events().stream().map(this::publish).toList();
        // A copy's record follows the events decided with it onto the broker (a failover before the copy it left).
        Map<String, RememberedCopy> records = mirror.drainRecords();
        if (!records.isEmpty()) {
            remembered.write(records, CompletableFuture.allOf(published.toArray(CompletableFuture[]::new)));
        }
        for (FleetStatus status : decisions.statuses()) {
            // Each status write replaces the job's whole status: one decided later makes an earlier one still queued moot.
            writes.submitLatest(status.job().subject(), status, this::writeStatus).whenComplete((done, failure) -> {
                if (failure != null) {
                    LOG.warnf("job %s: its fleet status was refused: %s", status.job(), failure.getMessage());
                }
            });
        }
        for (MirrorDecisions.Purge purge : decisions.purges()) {
            // Not before the broker has every event of the job decided so far: a copy purged before its job's failover
            // is told (the broker away, or status sync crashing in between) leaves the job bound to nothing. The mirror
            // asks again for a purge it has no answer to; one already waiting is not queued twice.
            CompletableFuture<Void> told = delivery.delivered(purge.job().uid());
            if (told.isDone()) {
                submitPurge(purge);
            } else if (purgesAwaitingEvents.add(awaitingKey(purge))) {
                told.thenRun(() -> {
                    purgesAwaitingEvents.remove(awaitingKey(purge));
                    submitPurge(purge);
                });
            }
        }
    }

    private static String awaitingKey(MirrorDecisions.Purge purge) {
        return purge.cluster() + "/" + purge.job().uid() + "/" + purge.copyUid();
    }

    private void submitPurge(MirrorDecisions.Purge purge) {
        writes.submit(purge.job().subject(), () -> {
            boolean confirmed = purger.purge(purge);
            metrics.purged(purge.cluster(), confirmed);
            if (confirmed) {
                crashPoint.after("purged");
                observe(mirror -> mirror.purgeConfirmed(purge.cluster(), purge.job().uid(), purge.copyUid()));
            }
        });
    }

    private void writeStatus(FleetStatus status) {
        String condition = status.status().currentCondition().map(JobCondition::type).orElse("-");
        Span span = traces.startJobSpan("fleet status " + condition, status.job().uid(), SpanKind.CLIENT);
        try (Scope scope = span.makeCurrent()) {
            if (fleet.status(status.job(), status.status())) {
                metrics.synced(status.cluster(), Duration.between(changedAt(status), clock.instant()));
                LOG.infof("job %s: fleet status now %s, as on %s", status.job(), condition, status.cluster());
            }
        } finally {
            span.end();
        }
    }

    /** A consumed job event's context: the job's trace goes on from it here (its fleet writes, what status sync publishes of it). */
    public Span startHandling(MusterEvent event, String traceparent) {
        return traces.startHandling(event.type().cloudEventType(), traceparent, event instanceof JobEvent job ? job.job().uid() : null);
    }

    /**
     * A failure that passes: the fleet API did not answer (fabric8 gives no HTTP code, -1, when the connection is
     * refused or cut), was overloaded, or failed inside; anything else is an answer.
     */
    static boolean passing(RuntimeException failure) {
        if (!(failure instanceof io.fabric8.kubernetes.client.KubernetesClientException client)) {
            return false;
        }
        int code = client.getCode();
        return code <= 0 || code == 408 || code == 409 || code == 429 || code >= 500;
    }

    /** When the member changed: its condition's update time when fresh, else when status sync saw it. */
    private static Instant changedAt(FleetStatus status) {
        return status.status().currentCondition().map(JobCondition::lastUpdateTime).flatMap(MirrorEngine::parse)
                .filter(updated -> !updated.isBefore(status.observedAt().minus(FRESH_CHANGE)) && updated.isBefore(status.observedAt().plusSeconds(1)))
                .orElse(status.observedAt());
    }

    private static java.util.Optional<Instant> parse(String time) {
        try {
            return java.util.Optional.ofNullable(time).map(Instant::parse);
        } catch (java.time.format.DateTimeParseException e) {
            return java.util.Optional.empty();
        }
    }

    /** Sends the event until the broker has it (see {@link EventDelivery}); done then. */
    private CompletableFuture<Void> publish(JobEvent event) {
        LOG.info(event.describe());
        metrics.published(event);
        return delivery.send(event);
    }

    /** One try: done once the broker has the event, failed when the producer gave up on it. */
    private CompletableFuture<Void> sendOnce(JobEvent event) {
        return Acknowledged.send(memberStatus, JobTraces.carrying(KafkaRecord.of(event.key(), EventSerde.serialize(event)),
                traces.sending(event.type().cloudEventType(), event.job().uid())), () -> {
                    if (event.data() instanceof FailoverTriggered) {
                        // Once the broker has it: the failover is decided for every reader, its purge still to come.
                        crashPoint.after("failed-over");
                    }
                });
    }
}
