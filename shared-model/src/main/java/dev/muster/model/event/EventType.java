package dev.muster.model.event;

import java.util.Arrays;
import java.util.Optional;

/** The CloudEvents {@code type} of each job event and the record its {@code data} is read into. */
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
    FINISHED("dev.muster.job.finished", JobFinished.class);

    private final String cloudEventType;
    private final Class<? extends JobEventData> dataType;

    EventType(String cloudEventType, Class<? extends JobEventData> dataType) {
        this.cloudEventType = cloudEventType;
        this.dataType = dataType;
    }

    /** The CloudEvents {@code type} attribute, e.g. {@code dev.muster.job.queued}. */
    public String cloudEventType() {
        return cloudEventType;
    }

    public Class<? extends JobEventData> dataType() {
        return dataType;
    }

    public static Optional<EventType> fromCloudEventType(String type) {
        return Arrays.stream(values()).filter(value -> value.cloudEventType.equals(type)).findFirst();
    }

    public static EventType of(JobEventData data) {
        return Arrays.stream(values()).filter(value -> value.dataType == data.getClass()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no event type for " + data.getClass().getName()));
    }
}
