package dev.muster.statussync.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.relay.TransactionalRelay;
import dev.muster.statussync.core.member.MemberStatusTracker;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#PLACEMENTS} and writes each decision of {@link MemberStatusTracker} to
 * {@link Topics#MEMBER_STATUS} (unreadable records to {@link Topics#DEAD_LETTER}) exactly once (see {@link TransactionalRelay}).
 */
@ApplicationScoped
public class PlacementListener {

    static final String PLACEMENTS = "placements";
    static final String MEMBER_STATUS = "member-status";

    private final TransactionalRelay relay;

    PlacementListener(@Channel(MEMBER_STATUS) KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.relay = new TransactionalRelay(transactions, processor);
    }

    @Incoming(PLACEMENTS)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }
}
