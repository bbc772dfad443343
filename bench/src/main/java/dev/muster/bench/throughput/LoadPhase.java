package dev.muster.bench.throughput;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One load step through a pipeline: {@code count} records produced to its input at a steady rate, each keyed by
 * a fresh id, and the time until its result shows, committed, on the output topic.
 */
final class LoadPhase {

    /** What one step measured: what got through, how fast, and how long each took end to end. */
    record Figures(double offeredRate, int sent, int arrived, double throughput, double p50Millis, double p95Millis, double p99Millis) {

        /** A step not run. */
        static final Figures NONE = new Figures(0, 0, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private LoadPhase() {
    }

    /**
     * @param payload  the record for an id
     * @param isResult whether an output record is the result the step waits for
     */
    static Figures run(KafkaProducer<String, byte[]> producer, String bootstrapServers, String input, String output, double rate, int count,
                       Function<String, byte[]> payload, Predicate<byte[]> isResult, Duration patience, String idPrefix) throws InterruptedException {
        Map<String, Long> sentAt = new ConcurrentHashMap<>();
        Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
        AtomicBoolean reading = new AtomicBoolean(true);
        Map<String, Object> settings = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(output).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        Thread reader = new Thread(() -> {
            try (consumer) {
                while (reading.get()) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(20))) {
                        if (record.key() != null && record.key().startsWith(idPrefix) && isResult.test(record.value())) {
                            arrivedAt.putIfAbsent(record.key(), System.nanoTime());
                        }
                    }
                }
            }
        }, "load-reader");
        reader.start();
        // Every record is made before the clock starts: the generator shares the cores with what it measures.
        List<String> ids = new ArrayList<>(count);
        List<byte[]> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(idPrefix + i);
            records.add(payload.apply(idPrefix + i));
        }
        long interval = (long) (1e9 / rate);
        long begin = System.nanoTime();
        for (int i = 0; i < count; i++) {
            long due = begin + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            String id = ids.get(i);
            sentAt.put(id, System.nanoTime());
            producer.send(new ProducerRecord<>(input, id, records.get(i)));
        }
        producer.flush();
        long deadline = System.nanoTime() + patience.toNanos();
        while (arrivedAt.size() < count && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20);
        }
        reading.set(false);
        reader.join(5_000);
        List<Double> latencies = new ArrayList<>();
        long last = begin;
        for (String id : ids) {
            Long arrived = arrivedAt.get(id);
            if (arrived != null) {
                latencies.add((arrived - sentAt.get(id)) / 1e6);
                last = Math.max(last, arrived);
            }
        }
        latencies.sort(null);
        double seconds = Math.max(1e-9, (last - begin) / 1e9);
        return new Figures(rate, count, latencies.size(), latencies.size() / seconds, percentile(latencies, 0.50), percentile(latencies, 0.95),
                percentile(latencies, 0.99));
    }

    private static double percentile(List<Double> sorted, double quantile) {
        return sorted.isEmpty() ? Double.NaN : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
    }
}
