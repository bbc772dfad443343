package dev.muster.queue.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.relay.TransactionalRelay;
import dev.muster.queue.core.intake.SubmissionIntake;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#SUBMISSIONS} and writes each decision of {@link SubmissionIntake} to
 * {@link Topics#ADMISSIONS} (unreadable records to {@link Topics#DEAD_LETTER}) exactly once (see {@link TransactionalRelay}).
 */
@ApplicationScoped
public class SubmissionListener {

    static final String SUBMISSIONS = "submissions";
    static final String ADMISSIONS = "admissions";

    private final TransactionalRelay relay;

    SubmissionListener(@Channel(ADMISSIONS) KafkaTransactions<byte[]> transactions, EventProcessor processor) {
        this.relay = new TransactionalRelay(transactions, processor);
    }

    @Incoming(SUBMISSIONS)
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }
}
