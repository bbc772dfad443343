package dev.muster.model.event;

/** A change of fleet configuration: the {@code data} of a {@link ConfigEvent}. */
public sealed interface ConfigEventData permits PolicyApplied, PolicyDeleted, QuotaTreeApplied, QuotaTreeDeleted, PriorityClassEvent,
        QueueTick, PlacementTick, ConfigOutcomeData {

    /** {@code namespace/name} of the object; its name alone for a cluster-scoped one. */
    String subject();

    /** {@code Kind/namespace/name}: every change of one object has this key, so they stay in order. */
    String key();

    String summary();
}
