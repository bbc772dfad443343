package dev.muster.model.event;

import java.util.List;

/**
 * The job will not run: each reason says what is wrong and where.
 *
 * @param reasons e.g. {@code spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1}
 */
public record JobRejected(List<String> reasons) implements JobEventData {

    public JobRejected {
        reasons = List.copyOf(reasons);
    }

    @Override
    public String summary() {
        return "rejected: " + String.join("; ", reasons);
    }
}
