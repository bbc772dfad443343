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
 * @param estimatedStart while it waits, when it would start were nothing new to arrive; null when there is no estimate
 * @param estimate       while it waits, what the estimate rests on, or why there is none
 */
public record JobQueueView(String namespace, String name, String uid, String state, String queue, int position, String reason,
                           String message, String demand, PyTorchJob job, PropagationPolicy policy, java.time.Instant estimatedStart,
                           String estimate) {
}
