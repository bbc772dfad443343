package dev.muster.placement.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

import dev.muster.model.event.Topics;
import dev.muster.runtime.Backlog;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;

/**
 * Whether the placement core has read the members' inventory whole since it was last read from the beginning: until it
 * has, members are known only in part and no gang may be judged never to fit. Every rewind says which it is, so that a
 * batch committed between an abort and the rewind it queued cannot leave the core believing a part-read inventory whole.
 */
final class InventoryReading {

    private final Backlog reports;
    /** Tells the core that its inventory is being read again. */
    private final Runnable reading;
    /** Tells the core that its inventory is read whole. */
    private final Runnable read;

    InventoryReading(Duration patience, Clock clock, Runnable reading, Runnable read) {
        this.reports = new Backlog("placement-service inventory", patience, clock);
        this.reading = reading;
        this.read = read;
    }

    /** Reads the inventory from the beginning: the fleet's state is the sum of every report. Call on the polling thread. */
    void rewind(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        List<TopicPartition> inventory = partitions.stream().filter(partition -> Topics.INVENTORY.equals(partition.topic())).toList();
        if (!inventory.isEmpty()) {
            consumer.seekToBeginning(inventory);
        }
        reports.assigned(consumer, inventory);
        if (reports.isRead()) {
            read.run();
        } else {
            reading.run();
        }
    }

    /** A batch's decisions were committed: the inventory may now be read as far as it stood at the rewind. */
    void committed(KafkaRecordBatch<?, ?> batch) {
        if (reports.committed(batch)) {
            read.run();
        }
    }
}
