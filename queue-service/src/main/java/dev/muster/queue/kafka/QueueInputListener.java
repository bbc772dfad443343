package dev.muster.queue.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.Topics;
import dev.muster.queue.config.Channels;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.TransactionalRelay;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes {@link Topics#SUBMISSIONS}, {@link Topics#FLEET_CONFIG}, {@link Topics#MEMBER_STATUS} and
 * {@link Topics#PLACEMENTS} (jobs given back) and writes
 * each decision of {@link FleetQueue} to {@link Topics#ADMISSIONS}, and its state to {@link Topics#QUEUE_STATE},
 * exactly once (see {@link TransactionalRelay}).
 */
@ApplicationScoped
public class QueueInputListener {


    private final TransactionalRelay relay;

    // Unbounded: a batch's records are emitted in one transaction, and an overflow would abort the batch each time it is read.
    QueueInputListener(@Channel(Channels.ADMISSIONS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) KafkaTransactions<byte[]> transactions, KafkaClientService clients, EventProcessor processor,
                       QueueStateStore store) {
        // After an abort the queue decided what the log does not hold: it starts again from the committed state.
        this.relay = new TransactionalRelay(transactions, clients, processor, TransactionalRelay.Outcome.restoringOnAbort(store::restoreAfterAbort),
                java.util.List::of, store.restores()).keepingPositions(store.positions());
    }

    // On a worker thread, one batch at a time: on the event loop (where SmallRye calls it otherwise) a batch's
    // decisions held up every HTTP exchange sharing that loop, member writes and watches alike, for seconds under load.
    @Incoming(Channels.INPUTS)
    @Blocking
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }
}
