package dev.muster.placement.core.binding;

import java.util.ArrayList;
import java.util.List;

import dev.muster.model.event.JobEvent;

/** What placement decided in one step: events to publish, and writes to ask of member clusters. */
public record Decisions(List<JobEvent> events, List<MemberCommand> commands) {

    public Decisions {
        events = List.copyOf(events);
        commands = List.copyOf(commands);
    }

    public static Decisions none() {
        return new Decisions(List.of(), List.of());
    }

    /** These decisions followed by those. */
    public Decisions and(Decisions more) {
        if (more.events.isEmpty() && more.commands.isEmpty()) {
            return this;
        }
        List<JobEvent> allEvents = new ArrayList<>(events);
        allEvents.addAll(more.events);
        List<MemberCommand> allCommands = new ArrayList<>(commands);
        allCommands.addAll(more.commands);
        return new Decisions(allEvents, allCommands);
    }
}
