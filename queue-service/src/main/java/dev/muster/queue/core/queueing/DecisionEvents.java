package dev.muster.queue.core.queueing;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MusterEvent;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaDecision;
import dev.muster.queue.core.quota.QuotaTree;

/**
 * What the queue tells jobs of the quota core's decisions: admitted (with the leaf and queue that admitted them), queued
 * (with why, where and when it is expected to start) or preempted; and, on ticks, the waiting jobs whose start-time
 * estimate moved enough since they were told. Reads the queue's jobs; changes nothing but which estimates were told.
 */
final class DecisionEvents {

    private final Map<String, TrackedJob> jobs;
    private final StartTimes startTimes;
    /** Which estimates the waiting jobs were told: one that moved enough is told again on a tick. */
    private final EstimateNotices notices = new EstimateNotices();

    DecisionEvents(Map<String, TrackedJob> jobs, StartTimes startTimes) {
        this.jobs = jobs;
        this.startTimes = startTimes;
    }

    /** The events the decisions tell their jobs; a decision on a job the queue no longer holds tells nothing. */
    List<MusterEvent> of(List<QuotaDecision> decisions, QuotaAdmission quota, MusterEvent cause, Instant now) {
        List<MusterEvent> events = new ArrayList<>(decisions.size());
        for (QuotaDecision decision : decisions) {
            TrackedJob tracked = jobs.get(decision.job().uid());
            if (tracked == null) {
                continue;
            }
            if (decision instanceof QuotaDecision.Admitted admitted) {
                startTimes.admitted(tracked.ref().uid());
                events.add(followUp(cause, tracked.ref(), now, new JobAdmitted(tracked.job().job(), tracked.policy(), admitted.leaf(), tracked.demand(),
                        admitted.job().priority(), quota.tree().flatMap(tree -> tree.node(admitted.leaf())).map(QuotaTree.Node::queue).orElse(null))));
            } else if (decision instanceof QuotaDecision.Waiting waiting) {
                Instant estimate = startTimes.estimatedStart(tracked.ref().uid());
                notices.told(tracked.ref().uid(), estimate, now);
                events.add(followUp(cause, tracked.ref(), now, new JobQueued(waiting.queue(), waiting.reason(), waiting.message(),
                        waiting.position() == 0 ? null : waiting.position(), tracked.demand(), waiting.job().priority(),
                        tracked.job().job().getSpec().priorityClassName().orElse(null), estimate)));
            } else if (decision instanceof QuotaDecision.Preempted preempted) {
                events.add(followUp(cause, tracked.ref(), now, new JobPreempted(preempted.by().ref(), preempted.by().uid(), preempted.message())));
            }
        }
        return events;
    }

    /** The waiting jobs whose start-time estimate moved enough since they were told, told again: on ticks only. */
    List<MusterEvent> estimatesMoved(QuotaAdmission quota, MusterEvent cause, Instant now) {
        List<MusterEvent> events = new ArrayList<>();
        for (EstimateNotices.Notice notice : notices.sweep(quota, startTimes::estimatedStart, startTimes.computedAt(), now)) {
            TrackedJob tracked = jobs.get(notice.uid());
            if (tracked != null) {
                events.add(followUp(cause, tracked.ref(), now, new JobQueued(notice.queue(), notice.standing().reason(),
                        notice.standing().message(), notice.position(), tracked.demand(), notice.standing().job().priority(),
                        tracked.job().job().getSpec().priorityClassName().orElse(null), notice.estimate())));
            }
        }
        return events;
    }

    /** An event the queue sends about the job, caused by the event it handled. */
    static JobEvent followUp(MusterEvent cause, JobRef job, Instant now, JobEventData data) {
        return JobEvent.causedBy(cause, FleetQueue.SOURCE, job, now, data);
    }
}
