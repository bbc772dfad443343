package dev.muster.model.event;

/**
 * Placement gives an admitted job's quota back because it could not place it for too long; the job waits
 * in its queue again at its original position, after a backoff.
 */
public record JobGivenBack(String reason) implements JobEventData {

    @Override
    public String summary() {
        return "given back to its queue: " + reason;
    }
}
