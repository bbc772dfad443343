package dev.muster.statussync.core.mirror;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.statussync.core.mirror.MirrorDecisions.FleetStatus;

/**
 * What the fleet is told of a job's current copy as its member shows it: each change of the copy's state ({@code Unknown}
 * while the member does not answer), each in-place restart of one of its pods, and its status, to mirror onto the fleet
 * job, when it changed. What was told is kept on the tracked copy, so that each change is told once; event ids are
 * derived from what was observed, so that a repeat after a restart is recognisable.
 */
final class CopyReports {

    private final CopyPods pods;

    CopyReports(CopyPods pods) {
        this.pods = pods;
    }

    /** The events and the fleet status the copy's present state owes the fleet; none when nothing changed. */
    MirrorDecisions of(TrackedCopy tracked, boolean isReachable, Instant now) {
        MemberCopy copy = tracked.copy;
        List<JobEvent> events = new ArrayList<>();
        List<FleetStatus> statuses = new ArrayList<>();
        String state = isReachable ? copy.state() : "Unknown";
        String reason = isReachable ? copy.condition().map(condition -> condition.reason()).orElse("NotStarted") : "MemberUnreachable";
        // A copy gone from its member has nothing more to report: only its loss is judged.
        if (tracked.deletedOnMemberAt == null && !Objects.equals(tracked.reportedState, state + "|" + reason)) {
            tracked.reportedState = state + "|" + reason;
            String message = isReachable ? copy.condition().map(condition -> condition.message()).orElse("waiting for the member's training operator")
                    : tracked.remembered ? "member " + copy.cluster() + " does not answer, and has not since status sync started"
                    : "member " + copy.cluster() + " does not answer; the job's last known state was " + copy.state();
            events.add(JobEvent.observed(JobMirror.SOURCE, copy.job(), now, new MemberStatusChanged(copy.cluster(), state, reason, message,
                    isReachable ? copy.status() : null), copy.copyUid() + "|" + state + "|" + reason + "|" + transitionTime(copy)));
        }
        if (isReachable) {
            events.addAll(restarts(tracked, state, now));
        }
        if (isReachable && !copy.status().conditions().isEmpty() && !Objects.equals(tracked.writtenStatus, copy.status())) {
            tracked.writtenStatus = copy.status();
            statuses.add(new FleetStatus(copy.job(), copy.cluster(), copy.status(), tracked.observedAt));
        }
        return new MirrorDecisions(events, statuses, List.of());
    }

    /**
     * A container of the copy's pods restarted in place (restart policy {@code OnFailure}): reported, as it is no
     * failure of the job. Counts seen when status sync first sees a pod are where it starts counting from.
     */
    private List<JobEvent> restarts(TrackedCopy tracked, String state, Instant now) {
        List<JobEvent> events = new ArrayList<>();
        for (MemberPod pod : pods.of(MemberJobName.of(tracked.copy))) {
            Integer seen = tracked.restarts.put(pod.name(), pod.restarts());
            if (seen != null && pod.restarts() > seen) {
                events.add(JobEvent.observed(JobMirror.SOURCE, tracked.copy.job(), now, new MemberStatusChanged(tracked.copy.cluster(), state,
                        "PodRestarted", "pod " + pod.name() + " restarted in place (" + pod.restarts() + " restarts in all)", null),
                        tracked.copy.copyUid() + "|" + pod.name() + "|restarts|" + pod.restarts()));
            }
        }
        return events;
    }

    private static String transitionTime(MemberCopy copy) {
        return copy.condition().map(condition -> condition.lastTransitionTime()).orElse("");
    }
}
