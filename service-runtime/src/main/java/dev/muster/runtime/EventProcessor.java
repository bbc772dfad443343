package dev.muster.runtime;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.common.header.Headers;

import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.event.TopicContract;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.runtime.logging.DecisionLog;
import dev.muster.runtime.tracing.JobTraces;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;

/**
 * The consume-decide-produce step every Muster service runs on each record it reads, free of any
 * messaging framework: decode the event, hand it to the service's decision core, and encode what the
 * core decided for the service's output topic. A record that cannot be decoded, or that the core fails
 * on, becomes a {@link DeadLetter} with the reason instead of stopping the stream; nothing read is dropped.
 * The Kafka adapter of each service sends the returned records in the same transaction as the consumed offsets.
 */
public final class EventProcessor implements RecordProcessor {

    /** The decision core of a service: the events one consumed event leads to (none is a valid answer). */
    @FunctionalInterface
    public interface Handler {
        List<? extends MusterEvent> handle(MusterEvent event);

        /** The decisions a core leaves until its batch of events is handled (one evaluation for the batch); none by default. */
        default List<? extends MusterEvent> batchEnded() {
            return List.of();
        }
    }

    /**
     * The state a stateful core changed while handling the last event, as records for its compacted state
     * topic (a null value removes a key); produced in the same transaction as the decisions.
     */
    @FunctionalInterface
    public interface StateChanges {
        List<Produced> drain();
    }

    /**
     * What a core says to a configuration change that could not even be read (its policy or tree cannot be parsed):
     * the events that tell the object why, e.g. a {@link dev.muster.model.event.ConfigRejected}.
     */
    @FunctionalInterface
    public interface ConfigRefusals {
        List<? extends MusterEvent> refuse(ConfigRef object, List<String> reasons);
    }

    /**
     * A record as consumed, with its headers (null for none) and its timestamp (null when not known), which an event
     * without a {@code time} takes.
     */
    public record Consumed(String topic, int partition, long offset, String key, byte[] value, Headers headers, Instant timestamp) {

        public Consumed(String topic, int partition, long offset, String key, byte[] value) {
            this(topic, partition, offset, key, value, null, null);
        }

        public Consumed(String topic, int partition, long offset, String key, byte[] value, Headers headers) {
            this(topic, partition, offset, key, value, headers, null);
        }

        /** The W3C trace context the record carries, or null. */
        public String traceparent() {
            return JobTraces.carried(headers);
        }
    }

    /** A record to produce; {@code traceparent} is the W3C trace context header it carries, or null. */
    public record Produced(String topic, String key, byte[] value, String traceparent) {

        public Produced(String topic, String key, byte[] value) {
            this(topic, key, value, null);
        }
    }

    private final String service;
    private final String outputTopic;
    private final Clock clock;
    private final Handler handler;
    private final StateChanges stateChanges;
    private final String rejectionSource;
    private final ConfigRefusals refusals;
    private final RecordReader reader;
    private final JobTraces traces;
    private final Logger log;

    /**
     * @param service     the service name, e.g. {@code queue-service}: recorded on dead letters and used as the logger name
     * @param outputTopic where the core's events go
     */
    public EventProcessor(String service, String outputTopic, Clock clock, Handler handler) {
        this(service, outputTopic, clock, handler, List::of);
    }

    /** For a stateful core: its state changes are produced after its decisions, in the same transaction. */
    public EventProcessor(String service, String outputTopic, Clock clock, Handler handler, StateChanges stateChanges) {
        this(service, outputTopic, clock, handler, stateChanges, null, null, RecordReader.everything(), JobTraces.off(service));
    }

    private EventProcessor(String service, String outputTopic, Clock clock, Handler handler, StateChanges stateChanges,
                           String rejectionSource, ConfigRefusals refusals, RecordReader reader, JobTraces traces) {
        this.traces = Objects.requireNonNull(traces, "traces");
        this.rejectionSource = rejectionSource;
        this.refusals = refusals;
        this.reader = Objects.requireNonNull(reader, "reader");
        this.stateChanges = Objects.requireNonNull(stateChanges, "stateChanges");
        this.service = Objects.requireNonNull(service, "service");
        this.outputTopic = Objects.requireNonNull(outputTopic, "outputTopic");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.log = System.getLogger("dev.muster." + service);
    }

    /**
     * This processor, also telling a job that its record could not be read or was refused: a {@code rejected}
     * event from the given source on the output topic, beside the dead letter. For the service that accepts
     * submissions.
     */
    public EventProcessor rejectingUnreadableJobs(String source) {
        return new EventProcessor(service, outputTopic, clock, handler, stateChanges, Objects.requireNonNull(source, "source"), refusals, reader, traces);
    }

    /**
     * This processor, also telling a configuration object that its change could not be read: what {@code refusals}
     * decides (the core records the refusal and says why on the output topic), beside the dead letter.
     */
    public EventProcessor refusingUnreadableConfig(ConfigRefusals configRefusals) {
        return new EventProcessor(service, outputTopic, clock, handler, stateChanges, rejectionSource,
                Objects.requireNonNull(configRefusals, "configRefusals"), reader, traces);
    }

    /**
     * This processor, reporting the records on {@code topic} that break its {@link TopicContract} (a type the topic does
     * not carry, a key that is not the event's): dead-lettered, and the job told, instead of passed over. For the topic
     * others produce to, the submissions topic, where an {@code admitted} event from a producer is a forgery or a
     * mistake, never a decision to act on. On every other topic such records are passed over, never acted on.
     */
    public EventProcessor reportingContractBreaches(String topic) {
        return new EventProcessor(service, outputTopic, clock, handler, stateChanges, rejectionSource, refusals, reader.reporting(topic), traces);
    }

    /**
     * This processor, passing over without decoding every record whose event type is not among {@code types}: the
     * types its core acts on. Each service reads whole topics whose other events are some other service's business
     * (placement reads every submission only for deletions). A record whose type cannot be read is decoded, and
     * dead-lettered, as before.
     */
    public EventProcessor readingOnly(Set<EventType> types) {
        return new EventProcessor(service, outputTopic, clock, handler, stateChanges, rejectionSource, refusals, reader.readingOnly(types), traces);
    }

    /** This processor, tracing each job's records and decisions in the job's trace (see {@link JobTraces}). */
    public EventProcessor tracing(JobTraces jobTraces) {
        return new EventProcessor(service, outputTopic, clock, handler, stateChanges, rejectionSource, refusals, reader, jobTraces);
    }

    /** What to produce for one consumed record: the core's decisions, or a dead letter (and the job's rejection). */
    @Override
    public List<Produced> process(Consumed record) {
        RecordReader.Read read = reader.read(record);
        if (read instanceof RecordReader.Unreadable unreadable) {
            return unreadable(record, unreadable.problem());
        }
        if (read instanceof RecordReader.PassedOver passed) {
            passed.breach().ifPresent(breach -> log.log(Level.WARNING,
                    "passing over " + record.topic() + "-" + record.partition() + "@" + record.offset() + ": " + breach));
            return List.of();
        }
        MusterEvent event = ((RecordReader.Decoded) read).event();
        String handledJob = event instanceof JobEvent jobEvent ? jobEvent.job().uid() : null;
        Span handling = traces.startHandling(event.type().cloudEventType(), record.traceparent(), handledJob);
        try (Scope scope = handling.makeCurrent()) {
            return decide(record, event, handling, handledJob);
        } finally {
            handling.end();
        }
    }

    private List<Produced> decide(Consumed record, MusterEvent event, Span handling, String handledJob) {
        List<? extends MusterEvent> decisions;
        try {
            decisions = handler.handle(event);
        } catch (RejectedEventException e) {
            // A core refuses before it changes anything but what it means to keep (a name the job holds): that is kept.
            List<Produced> produced = new ArrayList<>();
            produced.add(deadLetter(record, e.getMessage()));
            if (rejectionSource != null && e.job().isPresent()) {
                produced.add(rejection(record, e.job().get(), e.reasons()));
            }
            produced.addAll(stateChanges.drain());
            return produced;
        } catch (RuntimeException e) {
            log.log(Level.ERROR, "processing " + event.type().cloudEventType() + " of " + event.subject() + " failed", e);
            stateChanges.drain();
            return List.of(deadLetter(record, "processing " + event.type().cloudEventType() + " failed: " + e));
        }
        return produced(decisions, handling, handledJob);
    }

    /** The decisions, each logged and in its job's trace, then the state they changed. */
    private List<Produced> produced(List<? extends MusterEvent> decisions, Span handling, String handledJob) {
        List<Produced> produced = new ArrayList<>(decisions.size());
        for (MusterEvent decision : decisions) {
            String traceparent = traces.decided(decision.type().cloudEventType(), decision instanceof JobEvent job ? job.job().uid() : null,
                    handling, handledJob);
            DecisionLog.log(log, decision, traceparent);
            produced.add(new Produced(outputTopic, decision.key(), EventSerde.serialize(decision), traceparent));
        }
        produced.addAll(stateChanges.drain());
        return produced;
    }

    /** The decisions the core left until the batch's end, with the state they change; a core that fails here is logged, as for a record. */
    @Override
    public List<Produced> batchEnded() {
        List<? extends MusterEvent> decisions;
        try {
            decisions = handler.batchEnded();
        } catch (RuntimeException e) {
            log.log(Level.ERROR, "deciding at the end of a batch failed", e);
            stateChanges.drain();
            return List.of();
        }
        return produced(decisions, Span.getInvalid(), null);
    }

    private List<Produced> unreadable(Consumed record, MalformedEventException e) {
        List<Produced> produced = new ArrayList<>();
        produced.add(deadLetter(record, e.getMessage()));
        if (rejectionSource != null && e.job().isPresent()) {
            produced.add(rejection(record, e.job().get(), List.of(e.getMessage())));
        } else if (refusals != null && e.config().isPresent()) {
            for (MusterEvent refusal : refusals.refuse(e.config().get(), List.of(e.getMessage()))) {
                DecisionLog.log(log, refusal, null);
                produced.add(new Produced(outputTopic, refusal.key(), EventSerde.serialize(refusal)));
            }
            produced.addAll(stateChanges.drain());
        }
        return produced;
    }

    private Produced rejection(Consumed record, JobRef job, List<String> reasons) {
        // The id comes from the record's place in the log, so reading the record again rejects it with the same id.
        String seed = record.topic() + "-" + record.partition() + "@" + record.offset() + "|rejected";
        JobEvent rejected = new JobEvent(java.util.UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString(),
                rejectionSource, job, clock.instant(), new JobRejected(reasons));
        DecisionLog.log(log, rejected, null);
        return new Produced(outputTopic, job.uid(), EventSerde.serialize(rejected));
    }

    private Produced deadLetter(Consumed record, String reason) {
        return deadLetter(service, record, reason, clock);
    }

    /**
     * The dead letter every service writes for a record it cannot take, in one format: where it was, the reason, and its
     * payload (cut to fit the producer's size limit); logged for the operator.
     */
    public static Produced deadLetter(String service, Consumed record, String reason, Clock clock) {
        DeadLetter letter = DeadLetter.of(record.topic(), record.partition(), record.offset(), record.key(), record.value(), reason, service,
                clock.instant());
        System.getLogger("dev.muster." + service).log(Level.WARNING,
                "dead-lettering " + record.topic() + "-" + record.partition() + "@" + record.offset() + ": " + letter.reason());
        // Quarkus' root registry is Micrometer's global one. Counted as decided: a batch read again after its
        // transaction aborted counts its dead letters again.
        io.micrometer.core.instrument.Metrics.counter("muster.dead.letters", "service", service, "topic", record.topic()).increment();
        return new Produced(Topics.DEAD_LETTER, letter.key(), MusterJson.toBytes(letter));
    }
}
