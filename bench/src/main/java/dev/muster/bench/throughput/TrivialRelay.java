package dev.muster.bench.throughput;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Kafka's own ceiling for Muster's pipeline: three consume-produce hops with no decision in them, each as exactly
 * once as Muster's services are (a batch read {@code read_committed}, relayed in one transaction with its
 * consumed offsets), on the same broker, with the producer and consumer settings the services run with.
 */
final class TrivialRelay implements AutoCloseable {

    static final List<String> TOPICS = List.of("relay.in", "relay.hop-1", "relay.hop-2", "relay.out");

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> hops;

    TrivialRelay(String bootstrapServers, Map<String, ?> producerTuning) {
        hops = List.of(hop(bootstrapServers, 1, producerTuning), hop(bootstrapServers, 2, producerTuning), hop(bootstrapServers, 3, producerTuning));
        hops.forEach(Thread::start);
    }

    private Thread hop(String bootstrapServers, int number, Map<String, ?> producerTuning) {
        String from = TOPICS.get(number - 1);
        String to = TOPICS.get(number);
        Thread thread = new Thread(() -> {
            Map<String, Object> consumerSettings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    ConsumerConfig.GROUP_ID_CONFIG, "relay-hop-" + number, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
            Map<String, Object> producerSettings = new HashMap<>(producerTuning);
            producerSettings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
            producerSettings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "relay-hop-" + number);
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerSettings, new StringDeserializer(), new ByteArrayDeserializer());
                 KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerSettings, new StringSerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                consumer.subscribe(List.of(from));
                while (running.get()) {
                    ConsumerRecords<String, byte[]> records = consumer.poll(Duration.ofMillis(100));
                    if (records.isEmpty()) {
                        continue;
                    }
                    producer.beginTransaction();
                    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
                    for (ConsumerRecord<String, byte[]> record : records) {
                        producer.send(new ProducerRecord<>(to, record.key(), record.value()));
                        offsets.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
                    }
                    producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
                    producer.commitTransaction();
                }
            } catch (org.apache.kafka.common.errors.InterruptException e) {
                // stopping
            }
        }, "relay-hop-" + number);
        thread.setDaemon(true);
        return thread;
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread hop : hops) {
            hop.join(10_000);
        }
    }
}
