package dev.muster.relay;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.EventProcessor.Consumed;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Relays a consumed batch through a service's {@link EventProcessor} exactly once: everything the
 * processor returns for the batch (decisions and dead letters, to any topic) is produced in one Kafka
 * transaction together with the batch's consumed offsets. If the transaction fails, SmallRye aborts it
 * and the consumer reads the batch again; a crash at any instant neither loses a record nor decides it twice.
 * <p>
 * The incoming channel must be a batch channel ({@code batch=true}) reading {@code read_committed} with
 * {@code commit-strategy=ignore}; the outgoing channel must have a {@code transactional.id}.
 */
public final class TransactionalRelay {

    private final KafkaTransactions<byte[]> transactions;
    private final EventProcessor processor;

    public TransactionalRelay(KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.transactions = transactions;
        this.processor = processor;
    }

    public Uni<Void> relay(KafkaRecordBatch<String, byte[]> batch) {
        return transactions.withTransactionAndAck(batch, emitter -> {
            for (KafkaRecord<String, byte[]> record : batch) {
                long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L);
                processor.process(new Consumed(record.getTopic(), record.getPartition(), offset, record.getKey(), record.getPayload()))
                        .forEach(out -> emitter.send(KafkaRecord.of(out.topic(), out.key(), out.value())));
            }
            return Uni.createFrom().voidItem();
        });
    }
}
