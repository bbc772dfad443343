package dev.muster.model.event;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.resource.ResourceList;

/**
 * Quota admitted the job (or it bypasses the queue); it goes to placement. The job and its effective
 * policy travel with it, so placement needs no lookup.
 *
 * @param quotaLeaf the leaf charged, or null when the job bypasses quota
 * @param priority  the value of the job's PriorityClass as the queue resolved it, or null when it bypasses quota
 * @param queue     the name of the leaf's Kube Queue {@code Queue}, or null when it bypasses quota (or the event is older
 *                  than the field): a job admitted under a tree that moved its namespace names its new queue here before
 *                  the tree's acceptance may have been read
 */
public record JobAdmitted(PyTorchJob job, PropagationPolicy policy, String quotaLeaf, ResourceList demand, Integer priority, String queue)
        implements JobEventData {

    /** An admission that says no priority: one that bypasses quota. */
    public JobAdmitted(PyTorchJob job, PropagationPolicy policy, String quotaLeaf, ResourceList demand) {
        this(job, policy, quotaLeaf, demand, null, null);
    }

    /** An admission that does not name its queue. */
    public JobAdmitted(PyTorchJob job, PropagationPolicy policy, String quotaLeaf, ResourceList demand, Integer priority) {
        this(job, policy, quotaLeaf, demand, priority, null);
    }

    @Override
    public String summary() {
        return (quotaLeaf == null ? "admitted without quota (not queued)" : "admitted under quota leaf " + quotaLeaf) + ", demand " + demand;
    }
}
