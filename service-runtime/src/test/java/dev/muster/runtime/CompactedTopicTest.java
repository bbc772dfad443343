package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class CompactedTopicTest {

    private static final String TOPIC = "muster.test.state";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);

    private final MockConsumer<String, byte[]> reader = new MockConsumer<>("earliest");

    @Test
    void theLatestValueOfEachKeyIsReadBackAndATombstoneRemovesItsKey() {
        holding(4);
        record(0, "job-1", "first");
        record(1, "job-2", "second");
        record(2, "job-1", "again");
        record(3, "job-2", null);

        Map<String, byte[]> latest = CompactedTopic.latestByKey(reader, reader::endOffsets, TOPIC, Duration.ofSeconds(30), Clock.systemUTC());

        assertThat(latest).containsOnlyKeys("job-1");
        assertThat(new String(latest.get("job-1"), StandardCharsets.UTF_8)).isEqualTo("again");
    }

    @Test
    void aReadThatStopsShortOfTheEndFailsInsteadOfWaitingForGood() {
        // The topic holds 5 offsets; the broker goes away after the first 2 are read.
        holding(5);
        twoRecords();

        assertThatThrownBy(() -> readWithoutPatience(reader::endOffsets))
                .isInstanceOf(TimeoutException.class)
                .hasMessage("reading muster.test.state back made no progress for 0 s, at offset 2 of 5 (summed over its partitions; the broker away, or a transaction still open)");
    }

    /**
     * A committed read stops at an open transaction's first record (offset 2 here, the last stable offset) while the log
     * goes on to 5: the read back waits for the log's end, and fails if the transaction never ends, rather than return
     * a compacted prefix that was never the topic's state.
     */
    @Test
    void aReadBackGoesToTheLogsEndPastAnOpenTransactionNotToTheLastStableOffset() {
        holding(2);
        twoRecords();
        Map<TopicPartition, Long> logEnd = Map.of(PARTITION, 5L);

        assertThatThrownBy(() -> readWithoutPatience(partitions -> logEnd))
                .isInstanceOf(TimeoutException.class)
                .hasMessageContaining("at offset 2 of 5");
    }

    @Test
    void whatAGroupHasNotConsumedIsReadFromItsOffsetToTheEndInOrder() {
        holding(4);
        record(2, "job-1", "third");
        record(3, "job-2", "fourth");
        List<String> read = new java.util.ArrayList<>();

        CompactedTopic.readFrom(reader, reader::endOffsets, Map.of(PARTITION, 2L), Duration.ofSeconds(30), Clock.systemUTC(),
                record -> read.add(record.offset() + ":" + new String(record.value(), StandardCharsets.UTF_8)));

        assertThat(read).containsExactly("2:third", "3:fourth");
    }

    /** Offsets 0 and 1 offered, and no more. */
    private void twoRecords() {
        record(0, "job-1", "first");
        record(1, "job-2", "second");
    }

    /** A read back that gives up as soon as it makes no progress. */
    private Map<String, byte[]> readWithoutPatience(CompactedTopic.Ends ends) {
        return CompactedTopic.latestByKey(reader, ends, TOPIC, Duration.ZERO, Clock.systemUTC());
    }

    private void holding(long offsets) {
        reader.updatePartitions(TOPIC, List.of(new PartitionInfo(TOPIC, 0, null, null, null)));
        reader.updateBeginningOffsets(Map.of(PARTITION, 0L));
        reader.updateEndOffsets(Map.of(PARTITION, offsets));
    }

    private void record(long offset, String key, String value) {
        // Offered once the reader has been assigned the partition, as a broker would serve it.
        reader.schedulePollTask(() -> reader.addRecord(new ConsumerRecord<>(TOPIC, 0, offset, key,
                value == null ? null : value.getBytes(StandardCharsets.UTF_8))));
    }
}
