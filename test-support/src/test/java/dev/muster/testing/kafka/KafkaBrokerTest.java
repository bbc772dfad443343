package dev.muster.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;

@ExtendWith(KafkaBrokerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaBrokerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @BeforeAll
    static void createTopics(KafkaBroker broker) {
        broker.createTopics(List.of("plain", "transactional", "durable"), 3);
    }

    private static JobEvent deleted(String name) {
        return JobEvent.create("/test", new JobRef("default", name, UUID.randomUUID().toString()), Instant.now(), new JobDeleted("test"));
    }

    private static KafkaProducer<String, byte[]> transactionalProducer(KafkaBroker broker, String id) {
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, id),
                new StringSerializer(), new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }

    @Test
    @Order(0)
    void clusterIdsAreNeverReadAsACommandLineOption() {
        // One random id in 64 would start with '-'; ten thousand make the chance of missing that nil.
        for (int i = 0; i < 10_000; i++) {
            assertThat(KafkaBroker.newClusterId()).hasSize(22).doesNotStartWith("-");
        }
    }

    @Test
    @Order(1)
    void aProducedEventCanBeConsumed(KafkaBroker broker) {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent event = deleted("job-a");

            client.send("plain", event);

            assertThat(client.await("plain", seen -> seen.id().equals(event.id()), DEADLINE).job()).isEqualTo(event.job());
        }
    }

    @Test
    @Order(2)
    void committedTransactionsAreSeenAndAbortedOnesAreNot(KafkaBroker broker) {
        JobEvent committed = deleted("committed");
        JobEvent aborted = deleted("aborted");
        try (KafkaProducer<String, byte[]> producer = transactionalProducer(broker, "test-tx");
             JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("transactional", aborted.key(), EventSerde.serialize(aborted)));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("transactional", committed.key(), EventSerde.serialize(committed)));
            producer.commitTransaction();

            client.await("transactional", seen -> seen.id().equals(committed.id()), DEADLINE);
            assertThat(client.readAll("transactional")).extracting(JobEvent::id).containsExactly(committed.id());
        }
    }

    @Test
    @Order(3)
    void aKilledBrokerRestartsOnTheSameAddressWithItsData(KafkaBroker broker) {
        String address = broker.bootstrapServers();
        JobEvent before = deleted("before-crash");
        JobEvent after = deleted("after-crash");
        try (JobEventClient client = new JobEventClient(address)) {
            client.send("durable", before);

            broker.kill();
            assertThat(broker.isRunning()).isFalse();
            broker.startAgain();

            assertThat(broker.bootstrapServers()).isEqualTo(address);
            client.send("durable", after);
            assertThat(client.readAll("durable")).extracting(JobEvent::id).containsExactlyInAnyOrder(before.id(), after.id());
        }
    }

    @Test
    @Order(4)
    void transactionsWorkAfterAGracefulRestart(KafkaBroker broker) {
        broker.restart();
        JobEvent committed = deleted("after-restart");

        try (KafkaProducer<String, byte[]> producer = transactionalProducer(broker, "test-tx-2");
             JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("transactional", committed.key(), EventSerde.serialize(committed)));
            producer.commitTransaction();

            client.await("transactional", seen -> seen.id().equals(committed.id()), DEADLINE);
        }
    }

    @Test
    @Order(5)
    void creatingTopicsTwiceKeepsTheFirstAndAnUnknownTopicIsNotCreatedByUse(KafkaBroker broker) throws Exception {
        broker.createTopics(List.of("plain", "new-topic"), 5);

        try (Admin admin = broker.admin()) {
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).contains("plain", "new-topic").doesNotContain("typo");
            assertThat(admin.describeTopics(Set.of("plain")).allTopicNames().get(10, TimeUnit.SECONDS).get("plain").partitions()).hasSize(3);
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 2000), new StringSerializer(), new ByteArraySerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("typo", "k", "v".getBytes(StandardCharsets.UTF_8))).get())
                    .hasMessageContaining("typo");
        }
    }
}
