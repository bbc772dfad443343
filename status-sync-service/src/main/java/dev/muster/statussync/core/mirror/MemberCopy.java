package dev.muster.statussync.core.mirror;

import java.time.Instant;
import java.util.Optional;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.policy.FailoverPolicy;

/**
 * What status sync knows of one member copy of a fleet job, read from the copy itself.
 *
 * @param job        the fleet job it is a copy of (same namespace and name)
 * @param copyUid    the copy's own UID on the member: one placement of the job
 * @param generation the placement generation that made it (see {@link MemberJobs#PLACEMENT_GENERATION})
 * @param failover   the failover policy it was placed with
 * @param admittedAt when the queue made the admission it was placed under (see {@link MemberJobs#ADMITTED_AT}), if it says
 * @param status     its status as the member's training operator writes it
 */
public record MemberCopy(String cluster, JobRef job, String copyUid, int generation, Optional<FailoverPolicy> failover,
                         Optional<Instant> admittedAt, PyTorchJobStatus status) {

    /** Not created by the member's operator yet. */
    public static final String PENDING = "Pending";

    public MemberCopy {
        admittedAt = admittedAt == null ? Optional.empty() : admittedAt;
        status = status == null ? new PyTorchJobStatus(null, null, null, null, null, null) : status;
    }

    /** The copy as status sync sees it; empty for a job on the member that Muster did not place. */
    public static Optional<MemberCopy> of(String cluster, PyTorchJob copy) {
        return MemberJobs.fleetUid(copy).map(uid -> new MemberCopy(cluster,
                new JobRef(copy.getMetadata().getNamespace(), copy.getMetadata().getName(), uid), copy.getMetadata().getUid(),
                MemberJobs.generation(copy), MemberJobs.failover(copy), MemberJobs.admittedAt(copy), copy.getStatus()));
    }

    /** {@code Created}, {@code Running}, {@code Restarting}, {@code Succeeded}, {@code Failed}, or {@link #PENDING}. */
    public String state() {
        return status.currentCondition().map(JobCondition::type).orElse(PENDING);
    }

    /** The current condition's one-word reason and message, if it has one. */
    public Optional<JobCondition> condition() {
        return status.currentCondition();
    }

    /**
     * Whether a preemption decided at {@code preemptedAt} stops this copy: not when the copy says it runs under a later
     * admission (the job admitted and placed again before status sync read the preemption).
     */
    public boolean stoppedBy(Instant preemptedAt) {
        return preemptedAt == null || admittedAt.isEmpty() || !admittedAt.get().isAfter(preemptedAt);
    }

    public boolean isRunning() {
        return "Running".equals(state()) || "Succeeded".equals(state());
    }
}
