package dev.muster.runtime;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.TopicContract;
import dev.muster.runtime.EventProcessor.Consumed;

/**
 * How every Muster service reads a consumed record, which it cannot trust: in a form that cannot fail, in either of
 * CloudEvents' content modes ({@link BinaryCloudEvents}). A record is
 * either an event for the service's core, one to pass over (another service's business, or a breach of its topic's
 * {@link TopicContract} that is not this reader's to report), or unreadable, with the reason: never an exception.
 *
 * @param read      the event types the service's core acts on; records of other types are passed over without decoding
 *                  (decoding every record took 12 % of placement's CPU and 20 % of the queue's under load, much of it
 *                  for events their cores then passed over)
 * @param reporting the topics whose contract breaches are reported as unreadable (the one producers write to) instead
 *                  of passed over
 */
public record RecordReader(Set<EventType> read, Set<String> reporting) {

    /** What one consumed record is to the service. */
    public sealed interface Read {
    }

    /** An event the service's core acts on. */
    public record Decoded(MusterEvent event) implements Read {
    }

    /**
     * Not for this service: an event type its core does not act on ({@code breach} empty), or a record that breaks its
     * topic's contract on a topic whose breaches others report ({@code breach} says how). Never acted on.
     */
    public record PassedOver(Optional<String> breach) implements Read {
    }

    /** A record that cannot be read, or breaks the contract of a topic this reader reports on: a dead letter. */
    public record Unreadable(MalformedEventException problem) implements Read {
    }

    private static final PassedOver NOT_OURS = new PassedOver(Optional.empty());

    public RecordReader {
        read = read.isEmpty() ? EnumSet.noneOf(EventType.class) : EnumSet.copyOf(read);
        reporting = Set.copyOf(reporting);
    }

    /** A reader of every event type, reporting no topic's breaches. */
    public static RecordReader everything() {
        return new RecordReader(EnumSet.allOf(EventType.class), Set.of());
    }

    public RecordReader readingOnly(Set<EventType> types) {
        return new RecordReader(types, reporting);
    }

    public RecordReader reporting(String topic) {
        Set<String> topics = new java.util.HashSet<>(reporting);
        topics.add(Objects.requireNonNull(topic, "topic"));
        return new RecordReader(read, topics);
    }

    public Read read(Consumed record) {
        boolean reports = reporting.contains(record.topic());
        if (read.size() < EventType.values().length && !reports && !BinaryCloudEvents.isBinary(record.headers())) {
            Optional<EventType> type = EventSerde.peekType(record.value());
            if (type.isPresent() && (!read.contains(type.get()) || !TopicContract.carries(record.topic(), type.get()))) {
                return NOT_OURS;
            }
        }
        MusterEvent event;
        try {
            event = EventSerde.deserialize(BinaryCloudEvents.structured(record.headers(), record.value()), record.timestamp());
        } catch (MalformedEventException e) {
            return new Unreadable(e);
        }
        Optional<String> breach = TopicContract.problem(record.topic(), record.key(), event);
        if (breach.isPresent()) {
            return reports ? new Unreadable(new MalformedEventException(event instanceof JobEvent job ? job.job() : null, breach.get()))
                    : new PassedOver(breach);
        }
        return read.contains(event.type()) ? new Decoded(event) : NOT_OURS;
    }
}
