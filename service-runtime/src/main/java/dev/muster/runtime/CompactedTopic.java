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

    /** The latest committed value of every key on the topic (tombstones removing keys), up to its end now. */
    public static Map<String, byte[]> latestByKey(Map<String, Object> connection, String topic) {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        Map<String, Object> settings = new LinkedHashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
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
