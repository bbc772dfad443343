package dev.muster.statussync.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.EventProcessor.Consumed;
import dev.muster.model.event.Topics;
import dev.muster.statussync.core.member.MemberStatusTracker;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#PLACEMENTS} and writes each decision of {@link MemberStatusTracker} to
 * {@link Topics#MEMBER_STATUS} (unreadable records to {@link Topics#DEAD_LETTER}) in one Kafka transaction
 * with the consumed offsets.
 */
@ApplicationScoped
public class PlacementListener {

    static final String PLACEMENTS = "placements";
    static final String MEMBER_STATUS = "member-status";

    private final KafkaTransactions<byte[]> transactions;
    private final EventProcessor processor;

    PlacementListener(@Channel(MEMBER_STATUS) KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.transactions = transactions;
        this.processor = processor;
    }

    @Incoming(PLACEMENTS)
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
