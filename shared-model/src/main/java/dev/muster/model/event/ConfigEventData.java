package dev.muster.model.event;

/** A change of fleet configuration: the {@code data} of a {@link ConfigEvent}. */
public sealed interface ConfigEventData permits PolicyApplied, PolicyDeleted, QuotaTreeApplied, QuotaTreeDeleted, QueueTick,
        ConfigOutcomeData {

    /** {@code namespace/name} of the object. */
    String subject();

    /** {@code Kind/namespace/name}: every change of one object has this key, so they stay in order. */
    String key();

    String summary();
}
