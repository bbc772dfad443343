package dev.muster.model.event;

/**
 * The job is moved off a member where it could not run for longer than its toleration.
 *
 * @param purgeMode {@code Immediately}, {@code Graciously} or {@code Never}
 */
public record FailoverTriggered(String fromCluster, String reason, String purgeMode) implements JobEventData {

    @Override
    public String summary() {
        return "failing over from " + fromCluster + " (" + reason + "), purge mode " + purgeMode;
    }
}
