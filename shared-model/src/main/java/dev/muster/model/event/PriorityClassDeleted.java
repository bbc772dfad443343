package dev.muster.model.event;

import java.util.Objects;

/** A PriorityClass was deleted: jobs that name it from now on are refused; jobs already submitted keep their priority. */
public record PriorityClassDeleted(String name) implements PriorityClassEvent {

    public PriorityClassDeleted {
        Objects.requireNonNull(name, "name");
    }

    @Override
    public String summary() {
        return KIND + " " + name + " deleted";
    }
}
