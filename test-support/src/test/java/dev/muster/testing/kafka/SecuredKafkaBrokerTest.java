package dev.muster.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A secured broker: TLS and SCRAM in, ACLs deciding, and none of it undone by a restart. */
class SecuredKafkaBrokerTest {

    private static KafkaBroker broker;
    private static KafkaCredentials alice;

    @BeforeAll
    static void start() {
        broker = KafkaBroker.start(KafkaBrokerConfig.forTests().securedWithTlsAndScram());
        broker.createTopics(List.of("allowed", "forbidden"), 1);
        alice = broker.createUser("alice");
        broker.grant(List.of(new AclBinding(new ResourcePattern(ResourceType.TOPIC, "allowed", PatternType.LITERAL),
                new AccessControlEntry("User:alice", "*", AclOperation.WRITE, AclPermissionType.ALLOW))));
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private static Throwable send(Map<String, Object> settings, String topic) {
        return send(settings, topic, 10_000);
    }

    /** What a client gets for one record, waiting at most {@code maxBlockMillis} for the broker's metadata. */
    private static Throwable send(Map<String, Object> settings, String topic, int maxBlockMillis) {
        Map<String, Object> producer = new LinkedHashMap<>(settings);
        producer.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, maxBlockMillis);
        producer.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        producer.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (KafkaProducer<String, byte[]> client = new KafkaProducer<>(producer, new StringSerializer(), new ByteArraySerializer())) {
            client.send(new ProducerRecord<>(topic, "key", "value".getBytes(StandardCharsets.UTF_8))).get(20, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            return e;
        }
    }

    @Test
    void aUserWritesWhereAnAclAllowsAndNowhereElse() {
        assertThat(send(broker.clientSettings(alice), "allowed")).isNull();

        assertThat(send(broker.clientSettings(alice), "forbidden")).isInstanceOf(TopicAuthorizationException.class);
    }

    @Test
    void aWrongPasswordOrAnUnknownUserIsRefused() {
        assertThat(send(broker.clientSettings(alice.withPassword("guessed")), "allowed")).isInstanceOf(SaslAuthenticationException.class);
        assertThat(send(broker.clientSettings(new KafkaCredentials("mallory", "guessed", alice.truststore(), alice.truststorePassword())),
                "allowed")).isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aClientWithoutTlsAndCredentialsGetsNothingIn() {
        // It never gets the metadata it waits for: 3 s of that says as much as 10, as a client with TLS and credentials gets it at once.
        assertThat(send(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), "allowed", 3_000)).isNotNull();
    }

    @Test
    void usersAndAclsSurviveARestartAndNoPasswordIsInTheBrokersLog() throws Exception {
        broker.restart();

        assertThat(send(broker.clientSettings(alice), "allowed")).isNull();
        assertThat(send(broker.clientSettings(alice), "forbidden")).isInstanceOf(TopicAuthorizationException.class);
        String log = Files.readString(broker.logFile());
        assertThat(log).doesNotContain(alice.password()).doesNotContain(broker.adminCredentials().password());
    }

    @Test
    void credentialsNeverShowTheirPassword() {
        assertThat(alice.toString()).contains("alice").doesNotContain(alice.password());
        assertThat(broker.adminCredentials().toString()).doesNotContain(broker.adminCredentials().password());
    }
}
