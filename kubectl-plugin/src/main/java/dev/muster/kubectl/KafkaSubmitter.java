package dev.muster.kubectl;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.PyTorchJob;

/**
 * Submits a job on the Kafka path: one {@code dev.muster.job.submitted} event keyed by a new UID, on the submissions
 * topic of an open cluster, or on a secured one (a client properties file given) in the inbox of the SASL user the file
 * names, {@code muster.job.submissions.<user>}, the one topic that user may write to.
 */
final class KafkaSubmitter {

    static final String SOURCE = "/kubectl-muster";
    private static final Pattern SASL_USER = Pattern.compile("username\\s*=\\s*\"([^\"]+)\"");

    private final String bootstrapServers;
    private final Map<String, Object> clientConfig;
    private final String topic;

    private KafkaSubmitter(String bootstrapServers, Map<String, Object> clientConfig, String topic) {
        this.bootstrapServers = bootstrapServers;
        this.clientConfig = clientConfig;
        this.topic = topic;
    }

    /** @param clientConfigFile Kafka client properties (security.protocol, sasl.*, ssl.*), or null for an open cluster */
    static KafkaSubmitter of(String bootstrapServers, Path clientConfigFile) throws CommandFailedException {
        if (clientConfigFile == null) {
            return new KafkaSubmitter(bootstrapServers, Map.of(), Topics.SUBMISSIONS);
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(clientConfigFile)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new CommandFailedException("cannot read the Kafka client configuration " + clientConfigFile + ": " + e.getMessage());
        }
        Map<String, Object> config = new LinkedHashMap<>();
        properties.stringPropertyNames().forEach(name -> config.put(name, properties.getProperty(name)));
        Matcher user = SASL_USER.matcher(properties.getProperty("sasl.jaas.config", ""));
        String topic = user.find() ? Topics.inboxOf(user.group(1)) : Topics.SUBMISSIONS;
        return new KafkaSubmitter(bootstrapServers, config, topic);
    }

    /** Sends the event and waits for the broker to acknowledge it; the job's UID on the Kafka path. */
    String submit(PyTorchJob job) throws CommandFailedException {
        String uid = UUID.randomUUID().toString();
        JobRef ref = new JobRef(job.getMetadata().getNamespace(), job.getMetadata().getName(), uid);
        byte[] event = EventSerde.serialize(JobEvent.create(SOURCE, ref, Instant.now(), new JobSubmitted(job)));
        Map<String, Object> settings = new LinkedHashMap<>(clientConfig);
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, uid, event)).get(20, TimeUnit.SECONDS);
            return uid;
        } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new CommandFailedException("cannot submit to " + topic + " on Kafka at " + bootstrapServers + ": " + cause.getMessage()
                    + " (is Muster running? set MUSTER_KAFKA or --kafka)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while submitting");
        }
    }
}
