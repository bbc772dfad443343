package dev.muster.statussync.kafka;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.TopicContract;
import dev.muster.model.event.Topics;
import dev.muster.statussync.config.Channels;
import dev.muster.statussync.config.StatusSyncConfig;
import dev.muster.statussync.engine.MirrorEngine;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Consumes what the fleet must show: submissions and deletions ({@link Topics#SUBMISSIONS}), queue decisions on jobs
 * and configuration ({@link Topics#ADMISSIONS}), placement decisions ({@link Topics#PLACEMENTS}) and status sync's own
 * decisions ({@link Topics#MEMBER_STATUS}). Each record is acknowledged after its fleet writes, so a crash repeats it;
 * the writes find their earlier selves and change nothing. The next records are read while earlier ones' writes run,
 * up to {@code muster.status-sync.fleet-writes.pending}.
 * <p>
 * No record stops the consumer: one that cannot be read, or that the core fails on, goes to {@link Topics#DEAD_LETTER}
 * with the reason and its payload, and the next is read.
 */
@ApplicationScoped
public class JobEventListener {

    private static final Logger LOG = Logger.getLogger(JobEventListener.class);

    private final MirrorEngine engine;
    private final DeadLetters deadLetters;
    private final int pendingLimit;
    /** The writes of consumed records, oldest first; those done are dropped as records come. */
    private final Deque<CompletableFuture<Void>> pending = new ArrayDeque<>();

    JobEventListener(MirrorEngine engine, DeadLetters deadLetters, StatusSyncConfig config) {
        this.engine = engine;
        this.deadLetters = deadLetters;
        this.pendingLimit = config.fleetWrites().pending();
    }

    // On a worker thread, one batch at a time: on the event loop (where SmallRye calls it otherwise) a batch's
    // decisions held up every HTTP exchange sharing that loop, member writes and watches alike, for seconds under load.
    @Incoming(Channels.JOB_EVENTS)
    @Blocking
    public CompletionStage<Void> consume(KafkaRecord<String, byte[]> record) {
        if (record.getPayload() == null) {
            return record.ack();
        }
        MusterEvent event;
        try {
            event = EventSerde.deserialize(record.getPayload());
        } catch (MalformedEventException e) {
            // A producer's bad submission, which the queue service rejects on the job; nothing here can repair it.
            deadLetters.send(record, e.getMessage());
            return record.ack();
        }
        java.util.Optional<String> breach = TopicContract.problem(record.getTopic(), record.getKey(), event);
        if (breach.isPresent()) {
            // Never acted on: a forgery or a mistake, which the queue service reports where producers write.
            LOG.warnf("passing over a record of %s (key %s): %s", record.getTopic(), record.getKey(), breach.get());
            return record.ack();
        }
        CompletableFuture<Void> decided;
        try {
            decided = engine.consume(event);
        } catch (RuntimeException e) {
            LOG.errorf(e, "deciding on %s failed", event.describe());
            deadLetters.send(record, "status sync failed on " + event.type().cloudEventType() + " of " + event.subject() + ": " + e);
            return record.ack();
        }
        CompletableFuture<Void> written = decided.handle((done, failure) -> {
            if (failure != null) {
                LOG.warnf("writing to the fleet API for %s failed: %s", event.describe(), failure.getMessage());
            }
            return null;
        });
        written.thenCompose(done -> record.ack());
        return whenRoomFor(written);
    }

    /** Done at once while fewer records than the limit wait for their writes; else when the oldest is written. */
    private synchronized CompletionStage<Void> whenRoomFor(CompletableFuture<Void> written) {
        pending.addLast(written);
        while (!pending.isEmpty() && pending.peekFirst().isDone()) {
            pending.removeFirst();
        }
        return pending.size() < pendingLimit ? CompletableFuture.completedFuture(null) : pending.peekFirst();
    }
}
