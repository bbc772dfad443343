package dev.muster.model.event;

/**
 * Quota preempted the job to return borrowed capacity: placement stops it on its member, and once it has stopped
 * ({@link JobEvicted}) it waits again at its original position.
 *
 * @param by    the job that reclaimed the capacity ({@code namespace/name})
 * @param byUid that job's UID, for what is told on it
 */
public record JobPreempted(String by, String byUid, String message) implements JobEventData {

    @Override
    public String summary() {
        return "preempted for " + by + ": " + message;
    }
}
