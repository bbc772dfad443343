package dev.muster.model.event;

import java.util.Objects;

/**
 * A PriorityClass exists, or changed: jobs that name it from now on are ordered by its value, as Kubernetes resolves a
 * pod's priority when the pod is created; jobs already submitted keep theirs.
 *
 * @param value         the priority of jobs that name it; higher goes first
 * @param globalDefault whether jobs that name no class take its value
 */
public record PriorityClassApplied(String name, int value, boolean globalDefault) implements PriorityClassEvent {

    public PriorityClassApplied {
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String summary() {
        return KIND + " " + name + " applied: value " + value + (globalDefault ? ", the global default" : "");
    }
}
