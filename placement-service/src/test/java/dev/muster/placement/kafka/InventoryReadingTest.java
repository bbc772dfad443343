package dev.muster.placement.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.Topics;

/**
 * Each read of the inventory from the beginning tells the core whether it knows its members whole, so that a core told
 * "read" by a batch committed between an abort and the rewind it queued is not left believing a part-read inventory.
 */
class InventoryReadingTest {

    private static final TopicPartition REPORTS = new TopicPartition(Topics.INVENTORY, 0);
    private static final TopicPartition ADMISSIONS = new TopicPartition(Topics.ADMISSIONS, 0);

    private final List<String> told = new ArrayList<>();
    private final InventoryReading inventory = new InventoryReading(Duration.ofMinutes(2), Clock.systemUTC(),
            () -> told.add("reading"), () -> told.add("read"));
    private final MockConsumer<String, byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);

    InventoryReadingTest() {
        consumer.assign(List.of(REPORTS, ADMISSIONS));
        consumer.updateBeginningOffsets(Map.of(REPORTS, 0L, ADMISSIONS, 0L));
    }

    @Test
    void aRewindOverReportsTellsTheCoreItIsReadingEvenAfterItWasToldRead() {
        consumer.updateEndOffsets(Map.of(REPORTS, 0L, ADMISSIONS, 5L));
        inventory.rewind(consumer, consumer.assignment());
        assertThat(told).as("no report yet: known whole at once").containsExactly("read");

        consumer.updateEndOffsets(Map.of(REPORTS, 12L, ADMISSIONS, 5L));
        consumer.seek(REPORTS, 12);
        consumer.seek(ADMISSIONS, 3);
        inventory.rewind(consumer, consumer.assignment());

        assertThat(told).containsExactly("read", "reading");
        assertThat(consumer.position(REPORTS)).as("the reports are read from the beginning").isZero();
        assertThat(consumer.position(ADMISSIONS)).as("the other inputs stay where they were").isEqualTo(3);
    }
}
