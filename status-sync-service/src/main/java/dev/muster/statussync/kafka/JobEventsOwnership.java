package dev.muster.statussync.kafka;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.model.event.Topics;
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
    private static final Logger LOG = Logger.getLogger(JobEventsOwnership.class);

    private final Ownership ownership;

    JobEventsOwnership(Ownership ownership) {
        this.ownership = ownership;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (partitions.isEmpty()) {
            ownership.standingBy();
        } else {
            // Where the group's backlog of member-status events starts, asked only when this instance becomes the active one.
            ownership.owning(() -> unconsumedStatus(consumer, partitions));
        }
    }

    /** The group's position in each member-status partition: read before any member is (see UnconsumedFailovers). */
    private static Map<TopicPartition, Long> unconsumedStatus(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> unconsumedStatus = new LinkedHashMap<>();
        try {
            partitions.stream().filter(partition -> Topics.MEMBER_STATUS.equals(partition.topic()))
                    .forEach(partition -> unconsumedStatus.put(partition, consumer.position(partition)));
        } catch (RuntimeException e) {
            // The broker slow to say: the consumer reads the backlog as it would have anyway.
            LOG.warnf("where the member-status backlog starts is not known (%s): its failovers are read by the consumer only", e.getMessage());
            unconsumedStatus.clear();
        }
        return unconsumedStatus;
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        // Out of the group (its session expired): another instance may own the partitions by now.
        ownership.standingBy();
    }
}
