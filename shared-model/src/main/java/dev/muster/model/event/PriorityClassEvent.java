package dev.muster.model.event;

/** A change of one PriorityClass. A PriorityClass is cluster-scoped: its name alone is its subject. */
public sealed interface PriorityClassEvent extends ConfigEventData permits PriorityClassApplied, PriorityClassDeleted {

    String KIND = "PriorityClass";

    String name();

    @Override
    default String subject() {
        return name();
    }

    @Override
    default String key() {
        return KIND + "/" + name();
    }
}
