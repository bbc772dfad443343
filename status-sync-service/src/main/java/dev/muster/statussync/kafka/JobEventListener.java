package dev.muster.statussync.kafka;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.RecordReader;
import dev.muster.runtime.tracing.JobTraces;
import dev.muster.statussync.config.Channels;
import dev.muster.statussync.config.StatusSyncConfig;
import dev.muster.statussync.engine.MirrorEngine;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;

/**
 * Consumes what the fleet must show: submissions and deletions ({@link Topics#SUBMISSIONS}), queue decisions on jobs
 * and configuration ({@link Topics#ADMISSIONS}), placement decisions ({@link Topics#PLACEMENTS}) and status sync's own
 * decisions ({@link Topics#MEMBER_STATUS}). Each record is acknowledged after its fleet writes, so a crash repeats it;
 * the writes find their earlier selves and change nothing. A record whose writes a stop cut short is never acknowledged,
 * so the next instance reads it again. The next records are read while earlier ones' writes run,
 * up to {@code muster.status-sync.fleet-writes.pending}.
 * <p>
 * No record stops the consumer: it is read as every service reads ({@link RecordReader}), and one that cannot be read,
 * or that the core fails on, goes to {@link Topics#DEAD_LETTER} with the reason and its payload, and the next is read.
 */
@ApplicationScoped
public class JobEventListener {

    private static final Logger LOG = Logger.getLogger(JobEventListener.class);

    private final MirrorEngine engine;
    private final DeadLetters deadLetters;
    private final RecordReader reader = RecordReader.everything();
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
        long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L);
        Consumed consumed = new Consumed(record.getTopic(), record.getPartition(), offset, record.getKey(), record.getPayload(), record.getHeaders(),
                record.getTimestamp());
        RecordReader.Read read = reader.read(consumed);
        if (read instanceof RecordReader.Unreadable unreadable) {
            // A producer's bad submission, which the queue service rejects on the job; nothing here can repair it.
            deadLetters.send(consumed, unreadable.problem().getMessage());
            return record.ack();
        }
        if (read instanceof RecordReader.PassedOver passed) {
            // Never acted on: a forgery or a mistake, which the queue service reports where producers write.
            passed.breach().ifPresent(breach -> LOG.warnf("passing over a record of %s (key %s): %s", record.getTopic(), record.getKey(), breach));
            return record.ack();
        }
        MusterEvent event = ((RecordReader.Decoded) read).event();
        CompletableFuture<Void> decided;
        Span handling = engine.startHandling(event, consumed.traceparent());
        try (Scope scope = handling.makeCurrent()) {
            decided = engine.consume(event);
        } catch (RuntimeException e) {
            if (engine.stopping()) {
                // Cut short by the stop (an emitter or a lane closed under it): neither acknowledged nor a dead letter.
                LOG.debugf("not deciding on %s while stopping: %s", event.describe(), e.getMessage());
                return new CompletableFuture<>();
            }
            LOG.errorf(e, "deciding on %s failed", event.describe());
            deadLetters.send(consumed, "status sync failed on " + event.type().cloudEventType() + " of " + event.subject() + ": " + e);
            return record.ack();
        } finally {
            handling.end();
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
