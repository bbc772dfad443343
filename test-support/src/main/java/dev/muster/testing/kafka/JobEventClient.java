package dev.muster.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.json.MusterJson;

/**
 * What a test uses to talk to Muster over Kafka: produce job events (or raw bytes) and wait, with a
 * deadline, for the events and dead letters the services write. Reads only committed records, as the
 * services' own consumers do, so an aborted transaction is never seen.
 */
public final class JobEventClient implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(100);

    private final Map<String, Object> connection;
    private final KafkaProducer<String, byte[]> producer;

    /** A client of an open broker. */
    public JobEventClient(String bootstrapServers) {
        this(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
    }

    /** A client with these connection settings: bootstrap servers and, for a secured broker, its user's TLS and SASL settings. */
    public JobEventClient(Map<String, Object> connection) {
        this.connection = Map.copyOf(connection);
        Map<String, Object> settings = new java.util.LinkedHashMap<>(connection);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // A record the broker refuses (no ACL allows it) fails at once instead of after retries.
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
        this.producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
    }

    /** Produces one event, keyed as Muster keys it, and waits until the broker has it. */
    public void send(String topic, MusterEvent event) {
        sendRaw(topic, event.key(), EventSerde.serialize(event));
    }

    /** Produces arbitrary bytes, e.g. a malformed record, and waits until the broker has it. */
    public void sendRaw(String topic, String key, byte[] value) {
        send(new ProducerRecord<>(topic, key, value));
    }

    /** Produces a record as another client built it (headers and all, e.g. a CloudEvents SDK's binary mode) and waits. */
    public void send(ProducerRecord<String, byte[]> record) {
        String topic = record.topic();
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while producing to " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot produce to " + topic + ": " + e.getMessage(), e);
        }
    }

    /**
     * Waits for the first committed event on the topic that matches.
     *
     * @throws AssertionError naming what was seen instead, when none matches before the deadline
     */
    public JobEvent await(String topic, Predicate<JobEvent> matching, Duration timeout) {
        return await(topic, JobEvent.class, matching, timeout);
    }

    /**
     * Waits for the first committed event of this kind on the topic that matches.
     *
     * @throws AssertionError naming what was seen instead, when none matches before the deadline
     */
    public <T extends MusterEvent> T await(String topic, Class<T> kind, Predicate<T> matching, Duration timeout) {
        List<String> seen = new ArrayList<>();
        Optional<T> found = scan(topic, timeout, record -> {
            try {
                MusterEvent read = EventSerde.deserialize(record.value());
                if (!kind.isInstance(read)) {
                    return Optional.empty();
                }
                T event = kind.cast(read);
                seen.add(event.type() + " " + event.subject());
                return matching.test(event) ? Optional.of(event) : Optional.empty();
            } catch (MalformedEventException e) {
                seen.add("malformed: " + e.getMessage());
                return Optional.empty();
            }
        });
        return found.orElseThrow(() -> new AssertionError("no matching event on " + topic + " within " + timeout
                + "; saw " + seen));
    }

    /** Every committed job event on the topic now, in partition then offset order; malformed records are skipped. */
    public List<JobEvent> readAll(String topic) {
        return readAll(topic, JobEvent.class);
    }

    /** Every committed event of this kind on the topic now, in partition then offset order; malformed records are skipped. */
    public <T extends MusterEvent> List<T> readAll(String topic, Class<T> kind) {
        List<T> events = new ArrayList<>();
        scan(topic, Duration.ZERO, record -> {
            try {
                MusterEvent read = EventSerde.deserialize(record.value());
                if (kind.isInstance(read)) {
                    events.add(kind.cast(read));
                }
            } catch (MalformedEventException e) {
                // the caller asked for events; dead letters are read with awaitDeadLetter
            }
            return Optional.<T>empty();
        });
        return events;
    }

    /** Every committed record's value on the topic now, as written, in partition then offset order. */
    public List<byte[]> values(String topic) {
        List<byte[]> values = new ArrayList<>();
        scan(topic, Duration.ZERO, record -> {
            if (record.value() != null) {
                values.add(record.value());
            }
            return Optional.<Void>empty();
        });
        return values;
    }

    /** The latest value of every key on a compacted topic now, as the topic's owner would restore it. */
    public Map<String, byte[]> latestByKey(String topic) {
        Map<String, byte[]> latest = new java.util.LinkedHashMap<>();
        scan(topic, Duration.ZERO, record -> {
            if (record.value() == null) {
                latest.remove(record.key());
            } else {
                latest.put(record.key(), record.value());
            }
            return Optional.<Void>empty();
        });
        return latest;
    }

    /** Waits for the first dead letter that matches. */
    public DeadLetter awaitDeadLetter(String topic, Predicate<DeadLetter> matching, Duration timeout) {
        List<String> seen = new ArrayList<>();
        return scan(topic, timeout, record -> {
            try {
                DeadLetter letter = MusterJson.json().readValue(record.value(), DeadLetter.class);
                seen.add(letter.reason());
                return matching.test(letter) ? Optional.of(letter) : Optional.<DeadLetter>empty();
            } catch (java.io.IOException e) {
                seen.add("unreadable: " + new String(record.value(), StandardCharsets.UTF_8));
                return Optional.<DeadLetter>empty();
            }
        }).orElseThrow(() -> new AssertionError("no matching dead letter on " + topic + " within " + timeout + "; saw " + seen));
    }

    /** The JSON of a record value, for assertions on the exact wire format. */
    public static JsonNode json(byte[] value) throws java.io.IOException {
        return MusterJson.json().readTree(value);
    }

    /**
     * Reads the topic from the beginning until the visitor returns a value or the deadline passes; with a
     * zero timeout, reads up to the current end once.
     */
    private <T> Optional<T> scan(String topic, Duration timeout, java.util.function.Function<ConsumerRecord<String, byte[]>, Optional<T>> visitor) {
        Map<String, Object> settings = new java.util.LinkedHashMap<>(connection);
        settings.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Instant deadline = Instant.now().plus(timeout);
            do {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL)) {
                    Optional<T> result = visitor.apply(record);
                    if (result.isPresent()) {
                        return result;
                    }
                }
                if (timeout.isZero() && partitions.stream().allMatch(partition -> consumer.position(partition) >= end.get(partition))) {
                    return Optional.empty();
                }
            } while (timeout.isZero() || Instant.now().isBefore(deadline));
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
