package dev.muster.placement.engine;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementTick;
import dev.muster.model.event.Topics;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.placement.ClusterFitRow;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.placement.config.Channels;
import dev.muster.placement.config.PlacementConfig;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberHoldings;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.gang.PlacementRecord;
import dev.muster.placement.kubernetes.MemberWriter;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.runtime.crash.CrashPoint;
import dev.muster.runtime.tracing.JobTraces;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Runs the placement core for the service: one {@link GangPlacer} fed, one call at a time, with what it decides on.
 * Everything it decides on reaches it in a consumed batch, and everything it decides is produced in that batch's
 * transaction: consumed events; what members answered to its writes and its clock ticks, which it sends itself on
 * {@link Topics#PLACEMENT_RESULTS}; and what a takeover reads of the members, decided in the next batch (see
 * {@link #decideObservations}). The member writes it asks for run on their own threads once that transaction is
 * committed: the state records committed with them are the outbox, from which a new owner derives every write still
 * owed. The core's state goes to {@link Topics#PLACEMENT_STATE} with each change, and a new owner starts from it.
 */
@ApplicationScoped
public class PlacementEngine {

    private static final Logger LOG = Logger.getLogger(PlacementEngine.class);

    private final Object lock = new Object();
    private GangPlacer placer;
    /** The state changes of the last consumed event, drained with its decisions and produced in its transaction. */
    private List<Produced> pendingState = List.of();
    /**
     * Member writes decided while the members are reconciled after a restore, in the order decided: they run once
     * the reconciliation is committed, as a member copy the previous owner left must be adopted before the job is
     * placed anywhere else. Null when no reconciliation is under way. Guarded by {@link #lock}.
     */
    private List<MemberCommand> heldWrites;
    /**
     * Member writes decided since the consumed batch in flight began, in the order decided: they run when the batch's
     * transaction is committed and are dropped when it is not. Null when no batch is in flight. Guarded by {@link #lock}.
     */
    private List<MemberCommand> uncommittedWrites;
    /**
     * The member writes the last restore found owed, kept until the inputs' backlog is read (see {@link #backlogRead}):
     * what was written meanwhile may say they were carried out and undone. Null when none wait. Guarded by {@link #lock}.
     */
    private List<MemberCommand> owedByRestore;
    /** What each member held when read after the last restore, for the next batch to decide on; null until all are read. */
    private List<MemberHoldings> readHoldings;
    /** Which restore the reads in flight belong to: reads of an earlier one (before an abort) are dropped. */
    private int restores;
    /** Whether the batch in flight decided the reconciliation, so that the held writes run once it is committed. */
    private boolean reconciledInBatch;
    /** Whether the batch in flight bound a job (for the {@code bound} crash point). */
    private boolean boundInBatch;
    /** Whether the inventory, read again from the beginning on each takeover, has been read to where it stood then. */
    private boolean inventoryWhole = true;
    /** Whether this instance owns the inputs: only the owner ticks. */
    private volatile boolean active;
    private final MemberWriter writer;
    private final PlacementConfig config;
    /** Where to halt for a crash test (see {@link PlacementConfig#crashAfter}); nowhere otherwise. */
    private final CrashPoint crashPoint;
    private final Emitter<byte[]> results;
    /**
     * Lanes fed in the order the core decides (commands are queued under its lock), a job's writes always in the
     * same one: a release decided before a reservation of the same name is carried out before it. One lane for
     * every job bound them one member round trip at a time, however many were decided.
     */
    private final JobOrderedWrites writes;
    private final JobTraces traces;
    private ScheduledExecutorService ticker;

    private final PlacementMetrics metrics;

    PlacementEngine(PlacementConfig config, PlacementMetrics metrics, KubernetesClient fleet, JobTraces traces,
                    @Channel(Channels.PLACEMENT_RESULTS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> results) {
        this.config = config;
        this.traces = traces;
        this.crashPoint = new CrashPoint(config.crashAfter());
        this.metrics = metrics;
        this.placer = new GangPlacer(config.settings(), Clock.systemUTC());
        this.writer = new MemberWriter(config, fleet);
        this.writes = new JobOrderedWrites(config.memberWrites().parallel(), "member-writes");
        this.results = results;
        metrics.observeFreeGpu(() -> {
            synchronized (lock) {
                return placer.clusterNames();
            }
        }, cluster -> {
            synchronized (lock) {
                return placer.freeGpu(cluster);
            }
        });
    }

    void start(@Observes StartupEvent startup) {
        ticker = Executors.newSingleThreadScheduledExecutor(JobOrderedWrites.daemon("placement-ticker"));
        long interval = config.tickInterval().toMillis();
        ticker.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        writes.close();
        writer.close();
    }

    /** The core's answer to one consumed event; the member writes it asks for run once it is committed ({@link #committed}). */
    public List<JobEvent> decide(MusterEvent event) {
        if (event instanceof MemberEvent member && member.data() instanceof MemberEventData.MemberRemoved removed) {
            writer.forget(removed.cluster());
        }
        Decisions decisions;
        synchronized (lock) {
            decisions = placer.handle(event);
            pendingState = stateRecords(placer.drainState());
            inBatch(decisions);
        }
        metrics.consumed(event);
        metrics.decided(decisions.events(), decisions.commands());
        return decisions.events();
    }

    /**
     * What the members held when read after a takeover, decided at the start of the next batch and produced in its
     * transaction (see {@link GangPlacer#reconcile}); nothing until every member is read. The writes held since the
     * takeover run once that transaction is committed.
     */
    public List<Produced> decideObservations() {
        List<Produced> produced = new ArrayList<>();
        synchronized (lock) {
            if (readHoldings == null) {
                return List.of();
            }
            for (MemberHoldings holdings : readHoldings) {
                Decisions decisions = placer.reconcile(holdings);
                LOG.infof("member %s reconciled: %d Muster jobs and %d reservations found, %d events, %d writes", holdings.cluster(),
                        holdings.jobs().size(), holdings.reservations().size(), decisions.events().size(), decisions.commands().size());
                for (JobEvent event : decisions.events()) {
                    LOG.info(event.describe());
                    produced.add(new Produced(Topics.PLACEMENTS, event.key(), EventSerde.serialize(event)));
                }
                inBatch(decisions);
                metrics.decided(decisions.events(), decisions.commands());
            }
            produced.addAll(stateRecords(placer.drainState()));
            readHoldings = null;
            reconciledInBatch = true;
        }
        return produced;
    }

    /** Every cluster ranked for the job as if it were placed now, and why the others cannot take it; changes nothing. */
    public List<ClusterFitRow> explain(PyTorchJob job, PropagationPolicy policy) {
        GangPlanner.Options options;
        synchronized (lock) {
            options = placer.fitNow(job, policy);
        }
        List<ClusterFitRow> rows = new ArrayList<>();
        options.ranked().forEach(fits -> rows.add(new ClusterFitRow(fits.cluster(), true,
                fits.partialGpuNodes(), fits.freeGpu(), null, fits.domain() == null ? null : fits.domain().toString())));
        options.reasons().forEach((cluster, reason) -> rows.add(new ClusterFitRow(cluster, false, null, null, reason)));
        return rows;
    }

    /** The consumed batch's transaction is committed: the member writes decided meanwhile run, in the order decided. */
    public void committed() {
        synchronized (lock) {
            List<MemberCommand> decided = uncommittedWrites == null ? List.of() : uncommittedWrites;
            uncommittedWrites = null;
            if (!decided.isEmpty()) {
                crashPoint.after("committed");
            }
            if (boundInBatch) {
                crashPoint.after("bound");
                boundInBatch = false;
            }
            run(decided);
            if (reconciledInBatch) {
                reconciledInBatch = false;
                List<MemberCommand> held = heldWrites == null ? List.of() : heldWrites;
                heldWrites = null;
                run(held);
            }
        }
    }

    /**
     * The consumed batch's transaction failed: the core decided what the log does not hold. Its writes are dropped and
     * the core starts again from the committed state, as a new owner would; the batch is read again. If that state cannot
     * be read now, the failure goes to the relay, which has the restore run before the next batch.
     */
    public void aborted(Supplier<Map<String, byte[]>> committedState) {
        synchronized (lock) {
            uncommittedWrites = null;
            boundInBatch = false;
            reconciledInBatch = false;
        }
        restore(committedState.get());
    }

    /** The state changes of the last {@link #decide}, for its transaction. */
    public List<Produced> drainState() {
        synchronized (lock) {
            List<Produced> state = pendingState;
            pendingState = List.of();
            return state;
        }
    }

    /**
     * Whether this instance owns the inputs and has restored their state: only then is its view of the members the one
     * placement decides by (a standby reads no inventory).
     */
    public boolean owner() {
        return active;
    }

    /** Another instance owns the inputs: this one neither ticks nor writes. */
    public void standBy() {
        active = false;
    }

    /**
     * Takes over from the previous owner: a fresh core holding the state it left (the inventory is read again
     * from the beginning). The member writes it was in the middle of are carried out once the inputs' backlog is read
     * ({@link #backlogRead}); new ones are held until the members are reconciled.
     */
    public void restore(Map<String, byte[]> latest) {
        Map<String, PlacementRecord> records = decode(latest);
        Decisions resume;
        synchronized (lock) {
            placer = new GangPlacer(config.settings(), Clock.systemUTC());
            placer.inventoryWhole(inventoryWhole);
            resume = placer.restore(records);
            pendingState = List.of();
            // What the previous core decided and never carried out is resumed from the log, or was never committed.
            uncommittedWrites = null;
            readHoldings = null;
            restores++;
            owedByRestore = new ArrayList<>(resume.commands());
            heldWrites = new ArrayList<>();
        }
        active = true;
        LOG.infof("placement state restored from %s: %d jobs, %d member writes owed once the inputs' backlog is read",
                Topics.PLACEMENT_STATE, records.size(), resume.commands().size());
    }

    /**
     * The inventory is read again from the beginning: until {@link #inventoryRead}, members are known only in part,
     * and no gang is judged never to fit.
     */
    public void readingInventory() {
        synchronized (lock) {
            inventoryWhole = false;
            placer.inventoryWhole(false);
        }
    }

    /** The inventory has been read to where it stood when it was rewound: every member is known whole. */
    public void inventoryRead() {
        synchronized (lock) {
            inventoryWhole = true;
            placer.inventoryWhole(true);
        }
        LOG.info("the members' inventories are read whole again");
    }

    /** Takes a core that is thrown away through a placement and a restore, so that a takeover is not this JVM's first. */
    public void warmUp() {
        TakeoverWarmUp.run(config.settings());
    }

    private static Map<String, PlacementRecord> decode(Map<String, byte[]> latest) {
        Map<String, PlacementRecord> records = new LinkedHashMap<>();
        latest.forEach((uid, bytes) -> records.put(uid, PlacementRecord.decode(bytes)));
        return records;
    }

    /**
     * Everything the inputs held at the takeover is decided on and committed: the writes the restore found owed are
     * carried out, those the core still waits for, and then each member's holdings are read, for the next batch to
     * reconcile the log with. A job that ran to its end and was deleted while placement was down is not created again.
     */
    public void backlogRead() {
        List<MemberCommand> owed;
        List<CompletableFuture<Void>> resumed = new ArrayList<>();
        int restore;
        synchronized (lock) {
            if (owedByRestore == null) {
                return;
            }
            owed = owedByRestore.stream().filter(placer::stillOwed).toList();
            for (MemberCommand command : owedByRestore) {
                if (!owed.contains(command)) {
                    LOG.infof("job %s: %s on member %s, owed at the restore, is not carried out: the inputs since say the job moved on",
                            command.job(), command.step(), command.cluster());
                }
            }
            owedByRestore = null;
            restore = restores;
            owed.forEach(command -> resumed.add(write(command)));
        }
        LOG.infof("member writes resumed: %d", owed.size());
        // Each member's holdings are read once the resumed writes are done; new writes wait for the reconciliation.
        List<MemberHoldings> read = java.util.Collections.synchronizedList(new ArrayList<>());
        CompletableFuture.allOf(resumed.toArray(CompletableFuture[]::new))
                .handle((done, failed) -> CompletableFuture.allOf(writer.members().keySet().stream()
                        .map(cluster -> writes.submit("reconcile " + cluster, () -> read(cluster).ifPresent(read::add)))
                        .toArray(CompletableFuture[]::new)))
                .thenCompose(reads -> reads)
                .whenComplete((done, failed) -> {
                    synchronized (lock) {
                        if (restore == restores) {
                            readHoldings = List.copyOf(read);
                        }
                    }
                });
    }

    private Optional<MemberHoldings> read(String cluster) {
        try {
            return Optional.of(writer.holdings(cluster));
        } catch (RuntimeException e) {
            LOG.warnf("member %s could not be reconciled after the restore: %s", cluster, e.getMessage());
            return Optional.empty();
        }
    }

    /** Notes what a step of the batch in flight decided; call under the lock. */
    private void inBatch(Decisions decisions) {
        if (uncommittedWrites == null) {
            uncommittedWrites = new ArrayList<>();
        }
        if (decisions.events().stream().anyMatch(event -> event.data() instanceof JobBound)) {
            boundInBatch = true;
        }
        run(decisions.commands());
    }

    private static List<Produced> stateRecords(Map<String, PlacementRecord> changes) {
        List<Produced> records = new ArrayList<>();
        changes.forEach((uid, record) -> records.add(new Produced(Topics.PLACEMENT_STATE, uid, record == null ? null : record.encode())));
        return records;
    }

    /** Sends the owner a tick; one lost is made up for by the next. */
    private void tick() {
        if (active) {
            ConfigEvent tick = ConfigEvent.create(GangPlacer.SOURCE, Instant.now(), new PlacementTick());
            results.send(KafkaRecord.of(Topics.PLACEMENT_RESULTS, tick.key(), EventSerde.serialize(tick)));
        }
    }

    /**
     * Queues the member writes, each job's in order, or holds them until the batch in flight is committed or the
     * members are reconciled; call under the lock, so the lanes follow the order of decisions. The futures of the
     * writes queued.
     */
    private List<CompletableFuture<Void>> run(List<MemberCommand> commands) {
        if (uncommittedWrites != null) {
            uncommittedWrites.addAll(commands);
            return List.of();
        }
        if (heldWrites != null) {
            heldWrites.addAll(commands);
            return List.of();
        }
        List<CompletableFuture<Void>> queued = new ArrayList<>(commands.size());
        for (MemberCommand command : commands) {
            queued.add(write(command));
        }
        return queued;
    }

    /**
     * Queues one member write in its job's lane. It is carried out only if the core still owes it when its turn comes:
     * a write that waited behind others may have been overtaken by what the job did meanwhile.
     */
    private CompletableFuture<Void> write(MemberCommand command) {
        return writes.submit(command.job().namespace() + "/" + command.job().name(), () -> {
            synchronized (lock) {
                if (!placer.stillOwed(command)) {
                    LOG.infof("job %s: %s on member %s is not carried out: the job moved on while it waited", command.job(), command.step(),
                            command.cluster());
                    return;
                }
            }
            Span span = traces.startJobSpan("member " + command.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT),
                    command.job().uid(), SpanKind.CLIENT);
            Optional<MemberResult> result;
            try (Scope scope = span.makeCurrent()) {
                result = writer.execute(command);
            } finally {
                span.end();
            }
            if (command instanceof MemberCommand.Reserve) {
                crashPoint.after("reserved");
            } else if (result.isPresent() && result.get() instanceof MemberResult.JobCreated) {
                crashPoint.after("created");
            } else if (command instanceof MemberCommand.Evict) {
                crashPoint.after("evicted");
            }
            result.ifPresent(this::record);
        }).whenComplete((done, error) -> {
            if (error != null) {
                LOG.errorf(error, "job %s: a write on member %s failed unexpectedly", command.job(), command.cluster());
            }
        });
    }

    /**
     * Records what the member answered, for the core to decide on in a batch. The producer retries on its own for
     * its delivery timeout; a result it still could not record is sent again a tick later, as only the next owner's
     * restore would otherwise ask for the write again.
     */
    private void record(MemberResult result) {
        JobEvent answered = JobEvent.create(GangPlacer.SOURCE, result.job(), Instant.now(), result.answered());
        byte[] payload = EventSerde.serialize(answered);
        // In the job's trace, after the member write it answers.
        send(JobTraces.carrying(KafkaRecord.of(Topics.PLACEMENT_RESULTS, answered.key(), payload),
                traces.sending(answered.type().cloudEventType(), result.job().uid())));
    }

    private void send(Message<byte[]> record) {
        results.send(record.withNack(failure -> {
            if (!ticker.isShutdown()) {
                LOG.warnf("a member result could not be recorded (%s); sending it again", failure.toString());
                ticker.schedule(() -> send(record), config.tickInterval().toMillis(), TimeUnit.MILLISECONDS);
            }
            return CompletableFuture.completedFuture(null);
        }));
    }
}
