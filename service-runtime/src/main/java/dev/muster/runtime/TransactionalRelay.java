package dev.muster.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.tracing.JobTraces;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.OutgoingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Relays a consumed batch through a service's {@link EventProcessor} exactly once: everything the
 * processor returns for the batch (decisions, state changes and dead letters, to any topic) is produced in
 * one Kafka transaction together with the batch's consumed offsets. If the transaction fails, SmallRye aborts
 * it and the consumer reads the batch again; a crash at any instant neither loses a record nor decides it twice.
 * <p>
 * A batch the processor returns nothing for (most of them: inventory reports, a job's progress) opens no
 * transaction: its offsets are committed by the consumer alone, one request where a transaction is four and
 * its markers. Nothing was produced and no state changed, so there is nothing for the offsets to be atomic with.
 * Batches are relayed one at a time, so such a commit never overtakes a transaction's.
 * <p>
 * What a batch's decisions ask of the outside world (member writes) must not happen before they are committed: a
 * {@link Outcome} hears, once per batch, whether its decisions were committed (carry them out now) or not (a crash
 * or abort: whatever was decided is gone, and the core must start again from what the log holds).
 * <p>
 * What a service learns outside Kafka (a member read after a takeover) is decided the same way: its
 * {@link Observations} are asked at the start of every batch, and what they decide is produced in that batch's
 * transaction. A service that sends itself ticks through Kafka has a batch to decide them in at least once a tick.
 * <p>
 * A producer fenced for good (a broker outage that outlasted a transaction), or a transaction that neither commits nor
 * fails for minutes, ends the process: see {@link FencedProducer}. A restore of the service's state waits for the batch
 * in flight: see {@link RestoreGate}.
 * <p>
 * The incoming channel must be a batch channel ({@code batch=true}) reading {@code read_committed} with
 * {@code commit-strategy=ignore}; the outgoing channel must have a {@code transactional.id}.
 */
public final class TransactionalRelay {

    private static final Logger LOG = Logger.getLogger(TransactionalRelay.class);

    /**
     * Longer than a transaction can legitimately take through a broker outage (its commit blocks for {@code max.block.ms},
     * 1 min, its sends retry for {@code delivery.timeout.ms}, 2 min): past it, the producer's state is unknown and the
     * service exits for a fresh instance, as for a fenced producer.
     */
    private static final Duration STALLED_AFTER = Duration.ofMinutes(5);

    private final KafkaTransactions<byte[]> transactions;
    private final KafkaClientService clients;
    private final RecordProcessor processor;
    private final Outcome outcome;
    private final Observations observations;
    private final RestoreGate restores;
    private final InputPositions positions;

    /** Told how each relayed batch ended, on the thread that relays the next one only after. */
    public interface Outcome {

        /** The batch's decisions and offsets are committed (or it decided nothing and its offsets were committed alone). */
        void committed();

        /** The batch's transaction failed: nothing it decided is in the log, and the batch is read again. */
        void aborted(Throwable failure);

        /** An outcome for a service whose commits ask nothing of it and that reads its state again after an abort. */
        static Outcome restoringOnAbort(Runnable restore) {
            return new Outcome() {
                @Override
                public void committed() {
                }

                @Override
                public void aborted(Throwable failure) {
                    restore.run();
                }
            };
        }
    }

    /** What the service observed outside Kafka since the last batch, decided now: records for this batch's transaction. */
    @FunctionalInterface
    public interface Observations {

        List<Produced> decide();
    }

    private static final Outcome IGNORED = new Outcome() {
        @Override
        public void committed() {
        }

        @Override
        public void aborted(Throwable failure) {
        }
    };

    public TransactionalRelay(KafkaTransactions<byte[]> transactions, KafkaClientService clients, RecordProcessor processor) {
        this(transactions, clients, processor, IGNORED);
    }

    public TransactionalRelay(KafkaTransactions<byte[]> transactions, KafkaClientService clients, RecordProcessor processor, Outcome outcome) {
        this(transactions, clients, processor, outcome, List::of);
    }

    public TransactionalRelay(KafkaTransactions<byte[]> transactions, KafkaClientService clients, RecordProcessor processor, Outcome outcome,
                              Observations observations) {
        this(transactions, clients, processor, outcome, observations, new RestoreGate(() -> {
        }));
    }

    /** A relay for a service that restores its state when given the inputs: through {@code restores}, never during a batch. */
    public TransactionalRelay(KafkaTransactions<byte[]> transactions, KafkaClientService clients, RecordProcessor processor, Outcome outcome,
                              Observations observations, RestoreGate restores) {
        this(transactions, clients, processor, outcome, observations, restores, null);
    }

    private TransactionalRelay(KafkaTransactions<byte[]> transactions, KafkaClientService clients, RecordProcessor processor, Outcome outcome,
                               Observations observations, RestoreGate restores, InputPositions positions) {
        this.transactions = transactions;
        this.clients = clients;
        this.processor = processor;
        this.outcome = outcome;
        this.observations = observations;
        this.restores = restores;
        this.positions = positions;
    }

    /**
     * This relay, keeping the inputs' positions in the service's state topic with every transaction, and passing over the
     * records below the positions its restore found (see {@link InputPositions}). The service's restore must take its
     * state through {@link InputPositions#restore}.
     */
    public TransactionalRelay keepingPositions(InputPositions inputPositions) {
        return new TransactionalRelay(transactions, clients, processor, outcome, observations, restores,
                Objects.requireNonNull(inputPositions, "inputPositions"));
    }

    public Uni<Void> relay(KafkaRecordBatch<String, byte[]> batch) {
        return Uni.createFrom().deferred(() -> {
            restores.batchStarting();
            return decide(batch).ifNoItem().after(STALLED_AFTER).failWith(StalledTransaction::new);
        }).onItemOrFailure().invoke((done, failure) -> {
            if (failure == null) {
                outcome.committed();
            } else {
                LOG.warnf("a batch's transaction failed; what it decided is not in the log, and the batch is read again: %s",
                        failure.toString());
                try {
                    outcome.aborted(failure);
                } catch (RuntimeException restoreFailure) {
                    restores.restoreFailed(restoreFailure);
                }
                if (FencedProducer.isFenced(failure) || failure instanceof StalledTransaction) {
                    FencedProducer.exit(failure);
                }
            }
        }).eventually(restores::batchEnded)
                .onFailure().recoverWithUni(failure -> Uni.createFrom().completionStage(batch.nack(failure)));
    }

    /** A batch's transaction neither committed nor failed within {@link #STALLED_AFTER}. */
    static final class StalledTransaction extends RuntimeException {

        StalledTransaction() {
            super("a batch's transaction neither committed nor failed within " + STALLED_AFTER);
        }
    }

    private Uni<Void> decide(KafkaRecordBatch<String, byte[]> batch) {
        List<Produced> produced = new ArrayList<>(observations.decide());
        Map<TopicPartition, Integer> passedOver = new LinkedHashMap<>();
        for (KafkaRecord<String, byte[]> record : batch) {
            long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L);
            if (positions != null && positions.decided(record.getTopic(), record.getPartition(), offset)) {
                passedOver.merge(new TopicPartition(record.getTopic(), record.getPartition()), 1, Integer::sum);
                continue;
            }
            produced.addAll(processor.process(new Consumed(record.getTopic(), record.getPartition(), offset, record.getKey(), record.getPayload(),
                    record.getHeaders(), record.getTimestamp())));
        }
        produced.addAll(processor.batchEnded());
        if (!passedOver.isEmpty()) {
            positions.passedOver(passedOver);
        }
        if (produced.isEmpty()) {
            return commitOffsetsAlone(batch);
        }
        if (positions != null) {
            produced.addAll(positions.records(lastOffsets(batch)));
        }
        // Not withTransactionAndAck: it nacks an aborted batch and then acks it too, so its Uni succeeds either way,
        // and a batch whose transaction was aborted would be told committed. This fails when the transaction does,
        // once SmallRye has aborted it and put the consumer back at the committed offsets.
        return transactions.withTransaction(batch, emitter -> {
            produced.forEach(out -> emitter.send(outgoing(out)));
            return Uni.createFrom().voidItem();
        }).onItem().transformToUni(committed -> Uni.createFrom().completionStage(batch.ack()));
    }

    /** A produced record, with its trace context header when it has one. */
    private static OutgoingKafkaRecord<String, byte[]> outgoing(Produced out) {
        return JobTraces.carrying(KafkaRecord.of(out.topic(), out.key(), out.value()), out.traceparent());
    }

    private static IncomingKafkaRecordBatchMetadata<String, byte[]> metadata(KafkaRecordBatch<String, byte[]> batch) {
        @SuppressWarnings("unchecked")
        IncomingKafkaRecordBatchMetadata<String, byte[]> metadata = batch.getMetadata(IncomingKafkaRecordBatchMetadata.class)
                .orElseThrow(() -> new IllegalStateException("a batch without Kafka metadata: the incoming channel must be a Kafka batch channel"));
        return metadata;
    }

    /** The offset of each partition's last record in the batch. */
    private static Map<TopicPartition, Long> lastOffsets(KafkaRecordBatch<String, byte[]> batch) {
        return metadata(batch).getOffsets().entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
    }

    private Uni<Void> commitOffsetsAlone(KafkaRecordBatch<String, byte[]> batch) {
        // The committed offset is the next one to read, as a transaction commits it.
        Map<TopicPartition, OffsetAndMetadata> next = lastOffsets(batch).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> new OffsetAndMetadata(entry.getValue() + 1)));
        return clients.<String, byte[]>getConsumer(metadata(batch).getChannel()).commit(next)
                .onFailure().recoverWithItem(failure -> {
                    // Lost the partitions meanwhile (a rebalance): whoever owns them reads these records again, and they decide nothing.
                    LOG.warnf("committing offsets %s of records that decided nothing failed: %s", next, failure.toString());
                    return null;
                })
                .chain(() -> Uni.createFrom().completionStage(batch.ack()));
    }
}
