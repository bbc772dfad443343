package dev.muster.model.event;

import dev.muster.model.job.PyTorchJob;

/** A job entered the fleet, with its manifest as submitted. */
public record JobSubmitted(PyTorchJob job) implements JobEventData {

    @Override
    public String summary() {
        return "submitted";
    }
}
