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

/** Reads a service's compacted state topic back, as the service restores its state when it becomes the owner. */
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
        Map<String, Object> settings = new LinkedHashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            return latestByKey(reader, topic, STALL, Clock.systemUTC());
        }
    }

    /** As {@link #latestByKey(Map, String)}, with this reader, failing after {@code stall} without progress. */
    static Map<String, byte[]> latestByKey(Consumer<String, byte[]> reader, String topic, Duration stall, Clock clock) {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        List<TopicPartition> partitions = reader.partitionsFor(topic, PARTITIONS).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        reader.assign(partitions);
        reader.seekToBeginning(partitions);
        Map<TopicPartition, Long> end = reader.endOffsets(partitions);
        long total = end.values().stream().mapToLong(Long::longValue).sum();
        Instant lastProgress = clock.instant();
        long at = position(reader, partitions);
        while (partitions.stream().anyMatch(partition -> reader.position(partition) < end.get(partition))) {
            for (ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                if (record.value() == null) {
                    latest.remove(record.key());
                } else {
                    latest.put(record.key(), record.value());
                }
            }
            // Progress is the position moving, not records returned: transaction markers and aborted records move it too.
            long now = position(reader, partitions);
            if (now > at) {
                at = now;
                lastProgress = clock.instant();
            } else if (Duration.between(lastProgress, clock.instant()).compareTo(stall) >= 0) {
                throw new TimeoutException("reading " + topic + " back made no progress for " + stall.toSeconds() + " s, at offset "
                        + at + " of " + total + " (summed over its partitions)");
            }
        }
        return latest;
    }

    private static long position(Consumer<String, byte[]> reader, List<TopicPartition> partitions) {
        return partitions.stream().mapToLong(reader::position).sum();
    }
}
