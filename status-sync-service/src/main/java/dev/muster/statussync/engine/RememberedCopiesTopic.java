package dev.muster.statussync.engine;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites;
import dev.muster.model.event.Topics;
import dev.muster.runtime.CompactedTopic;
import dev.muster.statussync.core.mirror.RememberedCopy;
import io.smallrye.common.annotation.Identifier;

/**
 * Status sync's state topic ({@link Topics#STATUS_SYNC_STATE}): the member copies the mirror follows, written as they
 * change and read back when an instance becomes the active one. A record lost with a crash costs only what the topic is
 * for (judging a member that does not answer at the start); the members' own objects stay the truth for every member
 * that answers, so the records go out without a transaction, tombstones included.
 */
@ApplicationScoped
public class RememberedCopiesTopic {

    private static final Logger LOG = Logger.getLogger(RememberedCopiesTopic.class);

    private final Map<String, Object> connection;
    /** The one thread that sends, so that records go out in the order decided. */
    private final ExecutorService sender;
    /** Where a change goes once due: the broker, or a test's list. */
    private final Consumer<Map<String, RememberedCopy>> sink;
    /** The last change asked for: the next goes out only after it. */
    private CompletableFuture<Void> lastWrite = CompletableFuture.completedFuture(null);
    /** Made on the sender's thread at its first record. */
    private KafkaProducer<String, byte[]> producer;

    @Inject
    RememberedCopiesTopic(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfiguration) {
        this.connection = CompactedTopic.connection(kafkaConfiguration);
        this.sender = Executors.newSingleThreadExecutor(JobOrderedWrites.daemon("status-sync-state"));
        this.sink = this::send;
    }

    /** Changes go to {@code sink} on {@code sender}, as they would go to the broker. */
    RememberedCopiesTopic(ExecutorService sender, Consumer<Map<String, RememberedCopy>> sink) {
        this.connection = Map.of();
        this.sender = sender;
        this.sink = sink;
    }

    /** Every copy the topic holds now; a record that cannot be read is skipped, with a warning. */
    public List<RememberedCopy> restore() {
        List<RememberedCopy> copies = new ArrayList<>();
        CompactedTopic.latestByKey(connection, Topics.STATUS_SYNC_STATE).forEach((key, value) -> {
            try {
                copies.add(RememberedCopy.decode(value));
            } catch (IllegalArgumentException e) {
                LOG.warnf("%s: record %s cannot be read and is skipped: %s", Topics.STATUS_SYNC_STATE, key, e.getMessage());
            }
        });
        return copies;
    }

    /**
     * Sends each change in order, on a thread of its own: the mirror's lock is never held while the broker is slow or
     * away. A null value removes its key. A change goes out only once {@code decidedWith} has completed, either way (the
     * events decided with it are on the broker, or will not be), and after every change asked for before it: a copy
     * recorded as left by its job before that job's failover was on the broker would have been purged by the next
     * instance with the failover never told, the job bound to a copy that no longer exists.
     */
    public synchronized void write(Map<String, RememberedCopy> changes, CompletionStage<?> decidedWith) {
        if (changes.isEmpty()) {
            return;
        }
        CompletableFuture<Void> due = decidedWith.toCompletableFuture().handle((done, failure) -> null);
        lastWrite = lastWrite.thenCombine(due, (previous, events) -> (Void) null)
                .thenRunAsync(() -> sink.accept(changes), sender)
                .exceptionally(failure -> {
                    changes.keySet().forEach(key -> lost(key, failure));
                    return null;
                });
    }

    private void send(Map<String, RememberedCopy> changes) {
        if (producer == null) {
            Map<String, Object> settings = new LinkedHashMap<>(connection);
            settings.put(ProducerConfig.ACKS_CONFIG, "all");
            settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            settings.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            settings.put(ProducerConfig.CLIENT_ID_CONFIG, "status-sync-state");
            producer = new KafkaProducer<>(settings, new StringSerializer(), new ByteArraySerializer());
        }
        changes.forEach((key, copy) -> {
            try {
                producer.send(new ProducerRecord<>(Topics.STATUS_SYNC_STATE, key, copy == null ? null : copy.encode()), (metadata, failure) -> {
                    if (failure != null) {
                        lost(key, failure);
                    }
                });
            } catch (RuntimeException e) {
                lost(key, e);
            }
        });
    }

    private static void lost(String key, Throwable failure) {
        LOG.warnf("%s: record %s not written (%s); an instance started while its member does not answer would not know that copy",
                Topics.STATUS_SYNC_STATE, key, failure.getMessage());
    }

    @PreDestroy
    void close() throws InterruptedException {
        sender.shutdown();
        sender.awaitTermination(5, TimeUnit.SECONDS);
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
