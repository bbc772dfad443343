package dev.muster.model.queue;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;

/**
 * Where one job stands in the fleet's queues, as the queue service holds it.
 *
 * @param state    {@code Queuing}, {@code Admitted} or {@code Rejected}
 * @param queue    its Kube Queue {@code Queue}; null when its namespace is bound to no quota leaf
 * @param position its 1-based place in that queue while it waits, else 0
 * @param demand   what it asks of quota, e.g. {@code cpu=4010m, memory=4Gi}
 * @param policy   the PropagationPolicy it matched, if any
 */
public record JobQueueView(String namespace, String name, String uid, String state, String queue, int position, String reason,
                           String message, String demand, PyTorchJob job, PropagationPolicy policy) {
}
