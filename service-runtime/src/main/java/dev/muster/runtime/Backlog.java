package dev.muster.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;

/**
 * What a new owner of a service's inputs must read before it carries out what its predecessor left owed. A write
 * recorded before a crash and not yet answered may have been carried out and undone since: a member copy created,
 * run to its end and purged while the service was down. Only the inputs written meanwhile say so, so the owed writes
 * wait until everything the inputs held when they were assigned has been decided on and committed.
 * <p>
 * Read means each partition's committed position reached its end offset at the assignment (the last stable offset,
 * as the consumer reads {@code read_committed}). A transaction's marker takes an offset no record has, so a batch's
 * progress is the consumer's next offset after its poll ({@link ConsumerRecords#nextOffsets()}), not its last record's.
 * Past {@code patience} of batches flowing without reaching it, a backlog counts as read, said in a warning: the owed
 * writes are then carried out as they were before this wait existed, and nothing stops for good. A pause in the batches
 * (the broker away) starts the patience again: the backlog could not be read meanwhile.
 */
public final class Backlog {

    private static final Logger LOG = Logger.getLogger(Backlog.class);

    private final String service;
    private final Duration patience;
    private final Clock clock;
    /** The offset each partition must reach, for those not there yet. */
    private final Map<TopicPartition, Long> unread = new HashMap<>();
    /** A gap between two committed batches longer than this is a pause in the inputs, not time spent reading them. */
    private static final Duration PAUSE = Duration.ofSeconds(5);
    private Instant since;
    private Instant patientSince;
    private Instant lastBatch;
    private boolean read = true;

    public Backlog(String service, Duration patience, Clock clock) {
        this.service = service;
        this.patience = patience;
        this.clock = clock;
    }

    /** The inputs were assigned: what they hold now is the backlog. Call on the polling thread (a rebalance listener). */
    public synchronized void assigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        unread.clear();
        since = clock.instant();
        patientSince = since;
        lastBatch = since;
        if (!partitions.isEmpty()) {
            consumer.endOffsets(partitions).forEach((partition, end) -> {
                if (consumer.position(partition) < end) {
                    unread.put(partition, end);
                }
            });
        }
        read = unread.isEmpty();
        LOG.infof("%s: %d input partitions hold records written before this instance was given them", service, unread.size());
    }

    /**
     * A batch's decisions were committed: its partitions have been read that far. True when this completes the
     * backlog (once only).
     */
    public synchronized boolean committed(KafkaRecordBatch<?, ?> batch) {
        return committed(progress(batch));
    }

    /** A batch that took its partitions this far was committed; see {@link #committed(KafkaRecordBatch)}. */
    synchronized boolean committed(Map<TopicPartition, Long> reached) {
        if (read) {
            return false;
        }
        Instant now = clock.instant();
        if (Duration.between(lastBatch, now).compareTo(PAUSE) > 0) {
            patientSince = now;
        }
        lastBatch = now;
        reached.forEach((partition, next) -> unread.computeIfPresent(partition, (ignored, end) -> next >= end ? null : end));
        if (unread.isEmpty()) {
            read = true;
            LOG.infof("%s: read the inputs' backlog in %d ms", service, Duration.between(since, clock.instant()).toMillis());
            return true;
        }
        if (Duration.between(patientSince, now).compareTo(patience) > 0) {
            read = true;
            LOG.warnf("%s: the inputs' backlog is not read after %s (still to reach: %s); going on as if it were", service, patience, unread);
            unread.clear();
            return true;
        }
        return false;
    }

    /** A batch's transaction was aborted: it is read again, and must be before the backlog counts as read. */
    public synchronized void aborted(KafkaRecordBatch<?, ?> batch) {
        aborted(progress(batch));
    }

    /** A batch that took its partitions this far was aborted; see {@link #aborted(KafkaRecordBatch)}. */
    synchronized void aborted(Map<TopicPartition, Long> reached) {
        if (reached.isEmpty()) {
            return;
        }
        if (read) {
            since = clock.instant();
            patientSince = since;
            lastBatch = since;
        }
        reached.forEach((partition, next) -> unread.merge(partition, next, Math::max));
        read = false;
    }

    public synchronized boolean isRead() {
        return read;
    }

    /** How far the batch took each of its partitions: past its last record, and past any transaction marker its poll read. */
    private static Map<TopicPartition, Long> progress(KafkaRecordBatch<?, ?> batch) {
        Map<TopicPartition, Long> next = new HashMap<>();
        @SuppressWarnings("unchecked")
        IncomingKafkaRecordBatchMetadata<Object, Object> metadata = batch.getMetadata(IncomingKafkaRecordBatchMetadata.class).orElse(null);
        if (metadata == null) {
            return next;
        }
        metadata.getOffsets().forEach((partition, last) -> next.merge(partition, last.offset() + 1, Math::max));
        ConsumerRecords<Object, Object> records = metadata.getRecords();
        if (records != null) {
            for (Map.Entry<TopicPartition, OffsetAndMetadata> polled : records.nextOffsets().entrySet()) {
                next.merge(polled.getKey(), polled.getValue().offset(), Math::max);
            }
        }
        return next;
    }
}
