package dev.muster.runtime;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a service's compacted state topic back, as the service restores its state when it becomes the owner. */
public final class CompactedTopic {

    private static final Duration POLL = Duration.ofMillis(200);

    private CompactedTopic() {
    }

    /** The latest committed value of every key on the topic (tombstones removing keys), up to its end now. */
    public static Map<String, byte[]> latestByKey(String bootstrapServers, String topic) {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        try (KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = reader.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = reader.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> reader.position(partition) < end.get(partition))) {
                for (ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                    if (record.value() == null) {
                        latest.remove(record.key());
                    } else {
                        latest.put(record.key(), record.value());
                    }
                }
            }
        }
        return latest;
    }
}
