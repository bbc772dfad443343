package dev.muster.model.event;

import dev.muster.model.job.PyTorchJob;

/**
 * A job entered the fleet, with its manifest as submitted.
 *
 * @param priority the value of the PriorityClass it names (or of the global default), as the fleet API resolved it when
 *                 the job was created; null when the submission does not say, and the queue resolves it
 */
public record JobSubmitted(PyTorchJob job, Integer priority) implements JobEventData {

    public JobSubmitted(PyTorchJob job) {
        this(job, null);
    }

    @Override
    public String summary() {
        return "submitted";
    }
}
