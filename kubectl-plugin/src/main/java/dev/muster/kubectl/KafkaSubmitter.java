package dev.muster.kubectl;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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

/** Submits a job on the Kafka path: one {@code dev.muster.job.submitted} event on the submissions topic, keyed by a new UID. */
final class KafkaSubmitter {

    static final String SOURCE = "/kubectl-muster";

    private final String bootstrapServers;

    KafkaSubmitter(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /** Sends the event and waits for the broker to acknowledge it; the job's UID on the Kafka path. */
    String submit(PyTorchJob job) throws CommandFailedException {
        String uid = UUID.randomUUID().toString();
        JobRef ref = new JobRef(job.getMetadata().getNamespace(), job.getMetadata().getName(), uid);
        byte[] event = EventSerde.serialize(JobEvent.create(SOURCE, ref, Instant.now(), new JobSubmitted(job)));
        Map<String, Object> settings = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.SUBMISSIONS, uid, event)).get(20, TimeUnit.SECONDS);
            return uid;
        } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new CommandFailedException("cannot submit to Kafka at " + bootstrapServers + ": " + cause.getMessage()
                    + " (is Muster running? set MUSTER_KAFKA or --kafka)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted while submitting");
        }
    }
}
