package dev.muster.model.event;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One event in a job's life, with the CloudEvents attributes every Muster topic carries.
 *
 * @param id     unique per event; an event caused by another has an id derived from its cause, so a
 *               service that processes the same input twice emits the same ids and consumers can drop repeats
 * @param source the service or client that wrote it, e.g. {@code /muster/queue-service}
 * @param job    the job, whose UID is the Kafka key
 * @param time   when it happened
 */
public record JobEvent(String id, String source, JobRef job, Instant time, JobEventData data) implements MusterEvent {

    public JobEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(job, "job");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    /** A new event with a random id, for events that start a chain (a submission, a deletion, a member change). */
    public static JobEvent create(String source, JobRef job, Instant time, JobEventData data) {
        return new JobEvent(UUID.randomUUID().toString(), source, job, time, data);
    }

    /** An event caused by this one; its id is derived from this event's id, the job and the new type. */
    public JobEvent followUp(String source, JobRef job, Instant time, JobEventData data) {
        return causedBy(this, source, job, time, data);
    }

    /**
     * One of several events of the same type caused by this one, told apart by {@code step} (e.g. the second
     * attempt, the cluster tried): its id is derived from this event's id, the job, the type and the step.
     */
    public JobEvent followUp(String source, JobRef job, Instant time, JobEventData data, String step) {
        String seed = id + "|" + job.uid() + "|" + EventType.of(data).cloudEventType() + "|" + step;
        return new JobEvent(UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString(), source, job, time, data);
    }

    /**
     * An event that reports an observation (of a member, say) rather than follows from another event: its id
     * is derived from the job, the type and {@code observation}, so reporting the same observation again, after
     * a restart or a re-list, yields the same id.
     */
    public static JobEvent observed(String source, JobRef job, Instant time, JobEventData data, String observation) {
        return new JobEvent(observedId(job.uid(), EventType.of(data), observation), source, job, time, data);
    }

    /** The id {@link #observed} gives the report of {@code observation}: a reader can tell which observation an event reports. */
    public static String observedId(String jobUid, EventType type, String observation) {
        String seed = "observed|" + jobUid + "|" + type.cloudEventType() + "|" + observation;
        return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * An event about a job caused by any event (a job's or a configuration change); its id is derived from
     * the cause's id, the job and the new type, so processing the same cause twice yields the same ids.
     */
    public static JobEvent causedBy(MusterEvent cause, String source, JobRef job, Instant time, JobEventData data) {
        String seed = cause.id() + "|" + job.uid() + "|" + EventType.of(data).cloudEventType();
        return new JobEvent(UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString(), source, job, time, data);
    }

    @Override
    public EventType type() {
        return EventType.of(data);
    }

    /** One log line: the job and what happened, e.g. {@code job default/pytorch-test queued (NoQuotaForNamespace): …}. */
    @Override
    public String describe() {
        return "job " + job + " " + data.summary();
    }

    @Override
    public String subject() {
        return job.subject();
    }

    /** The Kafka record key: the job's fleet UID. */
    @Override
    public String key() {
        return job.uid();
    }
}
