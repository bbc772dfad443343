package dev.muster.model.event;

/**
 * Quota preempted the job to return borrowed capacity: its member copy is to be deleted; it waits again
 * at its original position.
 *
 * @param by the job that reclaimed the capacity ({@code namespace/name})
 */
public record JobPreempted(String by, String message) implements JobEventData {

    @Override
    public String summary() {
        return "preempted for " + by + ": " + message;
    }
}
