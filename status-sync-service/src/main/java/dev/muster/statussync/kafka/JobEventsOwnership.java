package dev.muster.statussync.kafka;

import java.util.Collection;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import dev.muster.statussync.engine.Ownership;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;

/**
 * Tells {@link Ownership} what the consumer group decided: the instance given the job-event partitions is the
 * active one. A revocation alone changes nothing, since every rebalance revokes everything before assigning it
 * again (the eager protocol); the assignment that follows says who owns them.
 */
@ApplicationScoped
@Identifier(JobEventsOwnership.REBALANCE_LISTENER)
public class JobEventsOwnership implements KafkaConsumerRebalanceListener {

    static final String REBALANCE_LISTENER = "status-sync-ownership";

    private final Ownership ownership;

    JobEventsOwnership(Ownership ownership) {
        this.ownership = ownership;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            ownership.standingBy();
        } else {
            ownership.owning();
        }
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // Out of the group (its session expired): another instance may own the partitions by now.
        ownership.standingBy();
    }
}
