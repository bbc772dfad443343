package dev.muster.queue.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.eclipse.microprofile.reactive.messaging.Incoming;

import dev.muster.model.event.Topics;
import dev.muster.queue.config.Channels;
import dev.muster.queue.submitters.SubmissionGate;
import dev.muster.runtime.CompactedTopic;
import dev.muster.runtime.InputPositions;
import dev.muster.runtime.RestoreGate;
import dev.muster.runtime.TransactionalRelay;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.transactions.KafkaTransactions;

/**
 * Consumes the submitters' inboxes and produces what {@link SubmissionGate} passes on or refuses, exactly once. The gate
 * keeps no state but where its inboxes stood at its last transaction, in the queue's state topic: a group handed older
 * offsets would otherwise pass on again a submission whose job was deleted since, and the queue would take it for new.
 */
@ApplicationScoped
@Identifier(SubmissionGateListener.REBALANCE_LISTENER)
public class SubmissionGateListener implements KafkaConsumerRebalanceListener {

    static final String REBALANCE_LISTENER = "queue-gate-positions";

    private final InputPositions positions = new InputPositions(Topics.QUEUE_STATE, Set.of());
    private final RestoreGate restores;
    private final TransactionalRelay relay;

    // Unbounded: a batch's records are emitted in one transaction, and an overflow would abort the batch each time it is read.
    SubmissionGateListener(@Channel(Channels.GATE) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) KafkaTransactions<byte[]> transactions,
                           KafkaClientService clients, SubmissionGate gate, @Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration) {
        Map<String, Object> connection = CompactedTopic.connection(kafkaConfiguration);
        Runnable restore = () -> positions.restore(CompactedTopic.latestByKey(connection, Topics.QUEUE_STATE));
        this.restores = new RestoreGate(restore);
        // After an abort the consumer is back at the committed offsets: the positions are read again beside them.
        this.relay = new TransactionalRelay(transactions, clients, gate, TransactionalRelay.Outcome.restoringOnAbort(restore), List::of, restores)
                .keepingPositions(positions);
    }

    @Incoming(Channels.INBOXES)
    @Blocking
    public Uni<Void> consume(KafkaRecordBatch<String, byte[]> batch) {
        return relay.relay(batch);
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            restores.standingBy();
        } else {
            positions.assigned(consumer, partitions);
            restores.assigned();
        }
    }
}
