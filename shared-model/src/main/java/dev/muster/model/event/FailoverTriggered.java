package dev.muster.model.event;

/**
 * The job is moved off a member where it could not run for longer than its toleration.
 *
 * @param reason    a one-word cause: {@code MemberUnreachable}, {@code JobFailed}, {@code PodUnschedulable},
 *                  {@code PodCrashLooping}, {@code NodeNotReady} or {@code CopyDeleted} (deleted on the member, not by Muster)
 * @param message   what was wrong and for how long, for a person
 * @param purgeMode {@code Immediately}, {@code Graciously} or {@code Never}
 */
public record FailoverTriggered(String fromCluster, String reason, String message, String purgeMode) implements JobEventData {

    @Override
    public String summary() {
        return "failing over from " + fromCluster + " (" + reason + "): " + message + "; purge mode " + purgeMode;
    }
}
