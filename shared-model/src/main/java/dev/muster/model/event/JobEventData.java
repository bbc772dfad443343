package dev.muster.model.event;

/** What happened to a job: the {@code data} of a {@link JobEvent}; each kind maps to one {@link EventType}. */
public sealed interface JobEventData permits JobSubmitted, JobDeleted, JobRejected, JobQueued, JobAdmitted, JobPreempted, JobWithdrawn, JobEvicted, JobGivenBack,
        PlacementAttempted, PlacementFailed, JobBound, MemberStatusChanged, FailoverTriggered, JobFinished,
        JobShown, MemberWriteAnswered {

    /** What happened, in one line for an operator's log, e.g. {@code queued (NoQuotaForNamespace): …}. */
    String summary();
}
