package dev.muster.placement.kafka;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.Topics;
import dev.muster.placement.config.Channels;
import dev.muster.placement.config.PlacementConfig;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.placement.engine.PlacementEngine;
import dev.muster.runtime.Backlog;
import dev.muster.runtime.CompactedTopic;
import dev.muster.runtime.InputPositions;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.tracing.JobTraces;
import dev.muster.runtime.RestoreGate;
import dev.muster.runtime.StandbyWarmUp;
import dev.muster.runtime.TransactionalRelay;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes what placement decides on: {@link Topics#ADMISSIONS}, member reports on {@link Topics#INVENTORY}, the
 * ends of jobs ({@link Topics#SUBMISSIONS} for deletions, {@link Topics#MEMBER_STATUS} for finished jobs), and what
 * it sends itself on {@link Topics#PLACEMENT_RESULTS} (members' answers to its writes, ticks),
 * and writes each decision to {@link Topics#PLACEMENTS} (unreadable records to {@link Topics#DEAD_LETTER}) in the
 * transaction that commits the consumed offsets (see {@link TransactionalRelay}). One instance owns every
 * partition; a new owner restores the core's state from {@link Topics#PLACEMENT_STATE} and reads the inventory
 * again from the beginning, since the fleet's state is the sum of every report.
 */
@ApplicationScoped
@Identifier(PlacementInputListener.REBALANCE_LISTENER)
public class PlacementInputListener implements KafkaConsumerRebalanceListener {

    static final String REBALANCE_LISTENER = "placement-inventory-rewind";

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(PlacementInputListener.class);

    private final TransactionalRelay relay;
    private final PlacementEngine engine;
    private final Map<String, Object> kafkaConnection;
    private final RestoreGate restores;
    /** What the inputs held when this instance was given them: the writes a restore finds owed wait until it is read. */
    private final Backlog backlog;
    /** Where the inventory stood when it was rewound: a core that has not read that far knows members only in part. */
    private final InventoryReading inventory;
    private final KafkaClientService clients;
    /** A standby's run of a scratch core, so that a takeover does not pay for the JVM's first restore. */
    private final StandbyWarmUp warmUp;
    /** Where the inputs stood at the last committed transaction; the inventory, read from its beginning on purpose, aside. */
    private final InputPositions positions = new InputPositions(Topics.PLACEMENT_STATE, Set.of(Topics.INVENTORY));
    /** The batch being relayed; batches are relayed one at a time. */
    private volatile KafkaRecordBatch<String, byte[]> relaying;

    // A batch may decide hundreds of records (a backlog read after a restart); beyond the records in flight, the
    // emitter's default buffer (128) overflowed inside the transaction, which aborted the batch every time it was read.
    PlacementInputListener(@Channel(Channels.PLACEMENTS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) KafkaTransactions<byte[]> transactions, KafkaClientService clients, PlacementEngine engine,
                           @Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration, JobTraces traces, PlacementConfig config) {
        this.engine = engine;
        this.kafkaConnection = CompactedTopic.connection(kafkaConfiguration);
        this.backlog = new Backlog("placement-service", config.backlogPatience(), Clock.systemUTC());
        this.inventory = new InventoryReading(config.backlogPatience(), Clock.systemUTC(), engine::readingInventory, engine::inventoryRead);
        this.clients = clients;
        // The state topic is read as a takeover reads it, and thrown away.
        this.warmUp = new StandbyWarmUp("placement-service", () -> {
            CompactedTopic.latestByKey(kafkaConnection, Topics.PLACEMENT_STATE);
            engine.warmUp();
        });
        this.restores = new RestoreGate(() -> {
            engine.restore(committedState());
            resumeIfBacklogRead();
        });
        this.relay = new TransactionalRelay(transactions, clients,
                new EventProcessor("placement-service", Topics.PLACEMENTS, Clock.systemUTC(), engine::decide, engine::drainState)
                        .readingOnly(GangPlacer.READS).tracing(traces), new TransactionalRelay.Outcome() {
                    @Override
                    public void committed() {
                        engine.committed();
                        inventory.committed(relaying);
                        if (backlog.committed(relaying)) {
                            engine.backlogRead();
                        }
                    }

                    @Override
                    public void aborted(Throwable failure) {
                        backlog.aborted(relaying);
                        rewindInventoryAfterAbort();
                        engine.aborted(PlacementInputListener.this::committedState);
                        resumeIfBacklogRead();
                    }
                }, engine::decideObservations, restores).keepingPositions(positions);
    }

    /** The core's state as the state topic holds it, the inputs' positions taken out of it. */
    private Map<String, byte[]> committedState() {
        return positions.restore(CompactedTopic.latestByKey(kafkaConnection, Topics.PLACEMENT_STATE));
    }

    // On a worker thread, one batch at a time: on the event loop (where SmallRye calls it otherwise) a batch's
    // decisions held up every HTTP exchange sharing that loop, member writes and watches alike, for seconds under load.
    @Incoming(Channels.INPUTS)
    @Blocking
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        relaying = batch;
        return relay.relay(batch);
    }

    /**
     * The core restored after an abort starts with no inventory, and the consumer was put back at the committed offsets,
     * past most of it: the inventory is read again from the beginning, on the polling thread (this may be it, so the
     * rewind is queued there, not awaited).
     */
    private void rewindInventoryAfterAbort() {
        engine.readingInventory();
        clients.<String, byte[]>getConsumer(Channels.INPUTS).runOnPollingThread(consumer -> {
            inventory.rewind(consumer, consumer.assignment());
            return null;
        }).subscribe().with(ignored -> {
        }, failure -> LOG.warnf("reading the inventory again after an aborted batch failed: %s", failure.toString()));
    }

    private void resumeIfBacklogRead() {
        if (backlog.isRead()) {
            engine.backlogRead();
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // Lost without a handover (the session expired): another instance may own them already, so this one stops
        // ticking and its views say it does not own the inputs until it is given them again.
        LOG.warnf("lost the inputs (%d partitions) without giving them up", partitions.size());
        engine.standBy();
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            LOG.info("standing by: another instance owns the inputs");
            restores.standingBy();
            engine.standBy();
            warmUp.standingBy();
            return;
        }
        // The inventory is read again from the beginning, and says nothing about whether an owed write was carried out.
        backlog.assigned(consumer, partitions.stream().filter(partition -> !Topics.INVENTORY.equals(partition.topic())).toList());
        engine.readingInventory();
        positions.assigned(consumer, partitions);
        restores.assigned();
        inventory.rewind(consumer, partitions);
    }
}
