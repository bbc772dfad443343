package dev.muster.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads topics back when a service becomes the owner of its inputs: its compacted state topic, to restore its state, and
 * what its consumer group has not consumed yet, when what it restores needs that before the consumer reads it.
 * <p>
 * A read goes to each partition's end as the broker holds it (its high watermark), not as a committed read sees it
 * now (its last stable offset): while a transaction is open, committed reads stop at its first record, and a compacted
 * topic read only that far is no snapshot of any moment (the keys written since are compacted out of the prefix). A
 * placement restored so, right after a restart, before its killed predecessor's transaction was aborted, held 2 jobs
 * of 300. The read waits for the open transaction to end, and fails as a stalled read does if it does not.
 */
public final class CompactedTopic {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration PARTITIONS = Duration.ofSeconds(30);
    /** How long a read back may go without a record before it is given up (the broker is away; the caller tries again). */
    static final Duration STALL = Duration.ofSeconds(30);

    private CompactedTopic() {
    }

    /**
     * How to reach the cluster, from the service's Kafka configuration (Quarkus' {@code default-kafka-broker}, every
     * {@code kafka.*} property): where it is and, on a secured cluster, the service's TLS and SASL settings.
     */
    public static Map<String, Object> connection(Map<String, Object> kafkaConfiguration) {
        Map<String, Object> connection = new LinkedHashMap<>();
        kafkaConfiguration.forEach((name, value) -> {
            if (name.equals(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG) || name.equals("security.protocol") || name.startsWith("sasl.")
                    || name.startsWith("ssl.")) {
                connection.put(name, value);
            }
        });
        return connection;
    }

    /**
     * The latest committed value of every key on the topic (tombstones removing keys), up to its end now; fails if the
     * read makes no progress for {@link #STALL} (the broker went away mid-read), so that a restore never waits for good.
     */
    public static Map<String, byte[]> latestByKey(Map<String, Object> connection, String topic) {
        try (KafkaConsumer<String, byte[]> reader = reader(connection); KafkaConsumer<String, byte[]> ends = endReader(connection)) {
            return latestByKey(reader, ends::endOffsets, topic, STALL, Clock.systemUTC());
        }
    }

    /**
     * Every committed record of the topic from its beginning up to its end now, in offset order per partition; fails as
     * {@link #latestByKey(Map, String)} does when the read makes no progress.
     */
    public static void readAll(Map<String, Object> connection, String topic, java.util.function.Consumer<ConsumerRecord<String, byte[]>> each) {
        try (KafkaConsumer<String, byte[]> reader = reader(connection); KafkaConsumer<String, byte[]> ends = endReader(connection)) {
            List<TopicPartition> partitions = reader.partitionsFor(topic, PARTITIONS).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            readFrom(reader, ends::endOffsets, reader.beginningOffsets(partitions), STALL, Clock.systemUTC(), each);
        }
    }

    /**
     * Every committed record from each partition's offset in {@code from} up to its end now, in offset order per partition;
     * fails as {@link #latestByKey(Map, String)} does when the read makes no progress.
     */
    public static void readFrom(Map<String, Object> connection, Map<TopicPartition, Long> from, java.util.function.Consumer<ConsumerRecord<String, byte[]>> each) {
        try (KafkaConsumer<String, byte[]> reader = reader(connection); KafkaConsumer<String, byte[]> ends = endReader(connection)) {
            readFrom(reader, ends::endOffsets, from, STALL, Clock.systemUTC(), each);
        }
    }

    /**
     * As {@link #readFrom(Map, Map, java.util.function.Consumer)}, with this reader, to the ends {@code ends} tells, failing
     * after {@code stall} without progress.
     */
    static void readFrom(Consumer<String, byte[]> reader, Ends ends, Map<TopicPartition, Long> from, Duration stall, Clock clock,
                         java.util.function.Consumer<ConsumerRecord<String, byte[]>> each) {
        List<TopicPartition> partitions = List.copyOf(from.keySet());
        reader.assign(partitions);
        from.forEach(reader::seek);
        readToEnd(reader, ends, partitions, stall, clock, each);
    }

    /** Each partition's end offset. */
    @FunctionalInterface
    interface Ends {

        Map<TopicPartition, Long> of(java.util.Collection<TopicPartition> partitions);
    }

    private static KafkaConsumer<String, byte[]> reader(Map<String, Object> connection) {
        Map<String, Object> settings = new LinkedHashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** A consumer that only looks up where each partition ends as the broker holds it, open transactions included. */
    private static KafkaConsumer<String, byte[]> endReader(Map<String, Object> connection) {
        Map<String, Object> settings = new LinkedHashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
    }

    /** As {@link #latestByKey(Map, String)}, with this reader, to the ends {@code ends} tells, failing after {@code stall} without progress. */
    static Map<String, byte[]> latestByKey(Consumer<String, byte[]> reader, Ends ends, String topic, Duration stall, Clock clock) {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        List<TopicPartition> partitions = reader.partitionsFor(topic, PARTITIONS).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        reader.assign(partitions);
        reader.seekToBeginning(partitions);
        readToEnd(reader, ends, partitions, stall, clock, record -> {
            if (record.value() == null) {
                latest.remove(record.key());
            } else {
                latest.put(record.key(), record.value());
            }
        });
        return latest;
    }

    private static void readToEnd(Consumer<String, byte[]> reader, Ends ends, List<TopicPartition> partitions, Duration stall, Clock clock,
                                  java.util.function.Consumer<ConsumerRecord<String, byte[]>> each) {
        Map<TopicPartition, Long> end = ends.of(partitions);
        long total = end.values().stream().mapToLong(Long::longValue).sum();
        Instant lastProgress = clock.instant();
        long at = position(reader, partitions);
        while (partitions.stream().anyMatch(partition -> reader.position(partition) < end.get(partition))) {
            for (ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                each.accept(record);
            }
            // Progress is the position moving, not records returned: transaction markers and aborted records move it too.
            long now = position(reader, partitions);
            if (now > at) {
                at = now;
                lastProgress = clock.instant();
            } else if (Duration.between(lastProgress, clock.instant()).compareTo(stall) >= 0) {
                throw new TimeoutException("reading " + topics(partitions) + " back made no progress for " + stall.toSeconds() + " s, at offset "
                        + at + " of " + total + " (summed over its partitions; the broker away, or a transaction still open)");
            }
        }
    }

    private static String topics(List<TopicPartition> partitions) {
        return String.join(", ", partitions.stream().map(TopicPartition::topic).distinct().sorted().toList());
    }

    private static long position(Consumer<String, byte[]> reader, List<TopicPartition> partitions) {
        return partitions.stream().mapToLong(reader::position).sum();
    }
}
