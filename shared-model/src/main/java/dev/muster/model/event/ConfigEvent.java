package dev.muster.model.event;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** One change of fleet configuration (a PropagationPolicy or the ElasticQuotaTree), with CloudEvents attributes. */
public record ConfigEvent(String id, String source, Instant time, ConfigEventData data) implements MusterEvent {

    public ConfigEvent {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    public static ConfigEvent create(String source, Instant time, ConfigEventData data) {
        return new ConfigEvent(UUID.randomUUID().toString(), source, time, data);
    }

    @Override
    public EventType type() {
        return EventType.of(data);
    }

    @Override
    public String key() {
        return data.key();
    }

    @Override
    public String subject() {
        return data.subject();
    }

    @Override
    public String describe() {
        return data.summary();
    }
}
