package dev.muster.statussync.core.mirror;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;

/**
 * Judges whether a member copy can run where it is. A job is unhealthy on its member when the member cannot
 * be reached, the job Failed, or one of its pods cannot run: unschedulable, crash-looping, or on a node that
 * is NotReady. A container that failed and was restarted (restart policy {@code OnFailure}) is not a failure
 * of the job: the copy is then Running or Restarting, both healthy.
 */
final class Health {

    /**
     * Why a copy cannot run.
     *
     * @param reason  a one-word cause, as {@code FailoverTriggered} carries it
     * @param message the same for a person
     */
    record Problem(String reason, String message) {
    }

    private Health() {
    }

    /** Why the copy cannot run, or empty when it can. */
    static Optional<Problem> problem(MemberCopy copy, Collection<MemberPod> pods, boolean memberReachable, Set<String> notReadyNodes) {
        if (!memberReachable) {
            return Optional.of(new Problem("MemberUnreachable", "member " + copy.cluster() + " is unreachable"));
        }
        if ("Failed".equals(copy.state())) {
            return Optional.of(new Problem("JobFailed", "the job failed on " + copy.cluster()
                    + copy.condition().map(condition -> ": " + condition.message()).orElse("")));
        }
        if (copy.status().isFinished()) {
            return Optional.empty();
        }
        for (MemberPod pod : pods) {
            if (pod.node() != null && notReadyNodes.contains(pod.node()) && !"Succeeded".equals(pod.phase())) {
                return Optional.of(new Problem("NodeNotReady", "pod " + pod.name() + " is on node " + pod.node() + ", which is NotReady"));
            }
            if (pod.problem().isPresent()) {
                return pod.problem();
            }
        }
        return Optional.empty();
    }
}
