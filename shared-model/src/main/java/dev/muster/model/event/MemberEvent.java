package dev.muster.model.event;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One observation of a member cluster (the member itself, a node, a pod, a reservation), with CloudEvents
 * attributes. Keyed by the cluster's name, so one cluster's observations stay in order.
 */
public record MemberEvent(String id, String source, Instant time, MemberEventData data) implements MusterEvent {

    public MemberEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    public static MemberEvent create(String source, Instant time, MemberEventData data) {
        return new MemberEvent(UUID.randomUUID().toString(), source, time, data);
    }

    @Override
    public EventType type() {
        return EventType.of(data);
    }

    @Override
    public String key() {
        return data.cluster();
    }

    @Override
    public String subject() {
        return data.subject();
    }

    @Override
    public String describe() {
        return data.cluster() + ": " + data.summary();
    }
}
