package dev.muster.placement.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.relay.TransactionalRelay;
import dev.muster.placement.core.gang.GangPlacer;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#ADMISSIONS} and writes each decision of {@link GangPlacer} to
 * {@link Topics#PLACEMENTS} (unreadable records to {@link Topics#DEAD_LETTER}) exactly once (see {@link TransactionalRelay}).
 */
@ApplicationScoped
public class AdmissionListener {

    static final String ADMISSIONS = "admissions";
    static final String PLACEMENTS = "placements";

    private final TransactionalRelay relay;

    AdmissionListener(@Channel(PLACEMENTS) KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.relay = new TransactionalRelay(transactions, processor);
    }

    @Incoming(ADMISSIONS)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }
}
