package dev.muster.queue.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.EventProcessor.Consumed;
import dev.muster.model.event.Topics;
import dev.muster.queue.core.intake.SubmissionIntake;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#SUBMISSIONS} and writes each decision of {@link SubmissionIntake} to
 * {@link Topics#ADMISSIONS} (unreadable records to {@link Topics#DEAD_LETTER}) in one Kafka transaction
 * with the consumed offsets, so a crash neither loses a submission nor decides it twice.
 */
@ApplicationScoped
public class SubmissionListener {

    static final String SUBMISSIONS = "submissions";
    static final String ADMISSIONS = "admissions";

    private final KafkaTransactions<byte[]> transactions;
    private final EventProcessor processor;

    SubmissionListener(@Channel(ADMISSIONS) KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.transactions = transactions;
        this.processor = processor;
    }

    @Incoming(SUBMISSIONS)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
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
