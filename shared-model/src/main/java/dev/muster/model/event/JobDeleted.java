package dev.muster.model.event;

/** The job's owner deleted it; everything it holds is to be released. */
public record JobDeleted(String reason) implements JobEventData {

    @Override
    public String summary() {
        return "deleted" + (reason == null ? "" : ": " + reason);
    }
}
