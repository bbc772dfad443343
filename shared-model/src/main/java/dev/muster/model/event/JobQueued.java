package dev.muster.model.event;

import java.time.Instant;

import dev.muster.model.resource.ResourceList;

/**
 * The job waits in a queue.
 *
 * @param queue    the queue's name, or null when no queue holds it (e.g. no quota leaf for its namespace)
 * @param reason   a one-word cause, e.g. {@code NoQuotaForNamespace}, {@code QuotaExceeded}
 * @param message  what blocks it, for a person, e.g. {@code root/child-2: kube-queue/max-jobs 1/1 in use}
 * @param position 1 for the head of the queue; null when it is not in a queue
 * @param demand   the job's total demand
 * @param priority      the value of the job's PriorityClass, as the queue orders it; null when not told
 * @param priorityClass the PriorityClass the job names, or null
 * @param estimatedStart when the queue expects it to start, were nothing new to arrive (its own replay, placement not
 *                       simulated); null when there is no estimate (yet)
 */
public record JobQueued(String queue, String reason, String message, Integer position, ResourceList demand, Integer priority,
                        String priorityClass, Instant estimatedStart) implements JobEventData {

    public JobQueued(String queue, String reason, String message, Integer position, ResourceList demand) {
        this(queue, reason, message, position, demand, null, null, null);
    }

    public JobQueued(String queue, String reason, String message, Integer position, ResourceList demand, Integer priority,
                     String priorityClass) {
        this(queue, reason, message, position, demand, priority, priorityClass, null);
    }

    /** The same wait, with another estimate. */
    public JobQueued withEstimatedStart(Instant start) {
        return new JobQueued(queue, reason, message, position, demand, priority, priorityClass, start);
    }

    @Override
    public String summary() {
        return "queued" + (queue == null ? "" : " in " + queue + " at position " + position) + " (" + reason + "): " + message;
    }
}
