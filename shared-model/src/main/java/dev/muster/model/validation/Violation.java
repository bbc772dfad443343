package dev.muster.model.validation;

/**
 * One reason an object is invalid: where, and what is wrong there.
 *
 * @param path    the field, in the dotted form kubectl uses, e.g. {@code spec.pytorchReplicaSpecs.Worker.replicas}
 * @param message what is wrong, e.g. {@code must be >= 0, got -1}
 */
public record Violation(String path, String message) {

    /** E.g. {@code spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1}. */
    @Override
    public String toString() {
        return path.isEmpty() ? message : path + ": " + message;
    }
}
