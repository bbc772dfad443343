package dev.muster.queue.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.queue.config.Channels;
import dev.muster.queue.submitters.SubmissionGate;
import dev.muster.runtime.TransactionalRelay;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/** Consumes the submitters' inboxes and produces what {@link SubmissionGate} passes on or refuses, exactly once. */
@ApplicationScoped
public class SubmissionGateListener {

    private final TransactionalRelay relay;

    // Unbounded: a batch's records are emitted in one transaction, and an overflow would abort the batch each time it is read.
    SubmissionGateListener(@Channel(Channels.GATE) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) KafkaTransactions<byte[]> transactions, KafkaClientService clients, SubmissionGate gate) {
        this.relay = new TransactionalRelay(transactions, clients, gate);
    }

    @Incoming(Channels.INBOXES)
    @Blocking
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }
}
