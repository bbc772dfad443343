package dev.muster.model.event;

import java.util.Arrays;
import java.util.Optional;

/** The CloudEvents {@code type} of each event and the record its {@code data} is read into. */
public enum EventType {

    SUBMITTED("dev.muster.job.submitted", JobSubmitted.class),
    DELETED("dev.muster.job.deleted", JobDeleted.class),
    REJECTED("dev.muster.job.rejected", JobRejected.class),
    QUEUED("dev.muster.job.queued", JobQueued.class),
    ADMITTED("dev.muster.job.admitted", JobAdmitted.class),
    PLACEMENT_ATTEMPTED("dev.muster.job.placement-attempted", PlacementAttempted.class),
    PLACEMENT_FAILED("dev.muster.job.placement-failed", PlacementFailed.class),
    BOUND("dev.muster.job.bound", JobBound.class),
    MEMBER_STATUS_CHANGED("dev.muster.job.member-status-changed", MemberStatusChanged.class),
    FAILOVER_TRIGGERED("dev.muster.job.failover-triggered", FailoverTriggered.class),
    FINISHED("dev.muster.job.finished", JobFinished.class),
    SHOWN("dev.muster.job.shown", JobShown.class),
    PREEMPTED("dev.muster.job.preempted", JobPreempted.class),
    WITHDRAWN("dev.muster.job.withdrawn", JobWithdrawn.class),
    EVICTED("dev.muster.job.evicted", JobEvicted.class),
    GIVEN_BACK("dev.muster.job.given-back", JobGivenBack.class),
    MEMBER_WRITE_ANSWERED("dev.muster.job.member-write-answered", MemberWriteAnswered.class),
    POLICY_APPLIED("dev.muster.config.policy-applied", PolicyApplied.class),
    POLICY_DELETED("dev.muster.config.policy-deleted", PolicyDeleted.class),
    QUOTA_TREE_APPLIED("dev.muster.config.quota-tree-applied", QuotaTreeApplied.class),
    QUOTA_TREE_DELETED("dev.muster.config.quota-tree-deleted", QuotaTreeDeleted.class),
    PRIORITY_CLASS_APPLIED("dev.muster.config.priority-class-applied", PriorityClassApplied.class),
    PRIORITY_CLASS_DELETED("dev.muster.config.priority-class-deleted", PriorityClassDeleted.class),
    QUEUE_TICK("dev.muster.config.queue-tick", QueueTick.class),
    PLACEMENT_TICK("dev.muster.config.placement-tick", PlacementTick.class),
    CONFIG_ACCEPTED("dev.muster.config.accepted", ConfigAccepted.class),
    CONFIG_REJECTED("dev.muster.config.rejected", ConfigRejected.class),
    MEMBER_REPORTED("dev.muster.member.reported", MemberEventData.MemberReported.class),
    MEMBER_REMOVED("dev.muster.member.removed", MemberEventData.MemberRemoved.class),
    NODE_REPORTED("dev.muster.member.node-reported", MemberEventData.NodeReported.class),
    NODE_REMOVED("dev.muster.member.node-removed", MemberEventData.NodeRemoved.class),
    POD_REPORTED("dev.muster.member.pod-reported", MemberEventData.PodReported.class),
    POD_REMOVED("dev.muster.member.pod-removed", MemberEventData.PodRemoved.class),
    RESERVATION_REPORTED("dev.muster.member.reservation-reported", MemberEventData.ReservationReported.class),
    RESERVATION_REMOVED("dev.muster.member.reservation-removed", MemberEventData.ReservationRemoved.class);

    private final String cloudEventType;
    private final Class<?> dataType;

    EventType(String cloudEventType, Class<?> dataType) {
        this.cloudEventType = cloudEventType;
        this.dataType = dataType;
    }

    /** The CloudEvents {@code type} attribute, e.g. {@code dev.muster.job.queued}. */
    public String cloudEventType() {
        return cloudEventType;
    }

    public Class<?> dataType() {
        return dataType;
    }

    /** Whether events of this type are about one job (keyed by its UID) rather than configuration. */
    public boolean isJobEvent() {
        return JobEventData.class.isAssignableFrom(dataType);
    }

    /** Whether events of this type are observations of a member cluster (keyed by the cluster's name). */
    public boolean isMemberEvent() {
        return MemberEventData.class.isAssignableFrom(dataType);
    }

    public static Optional<EventType> fromCloudEventType(String type) {
        return Arrays.stream(values()).filter(value -> value.cloudEventType.equals(type)).findFirst();
    }

    public static EventType of(Object data) {
        return Arrays.stream(values()).filter(value -> value.dataType == data.getClass()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no event type for " + data.getClass().getName()));
    }
}
