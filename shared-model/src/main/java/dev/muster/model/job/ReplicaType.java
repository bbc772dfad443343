package dev.muster.model.job;

import java.util.Arrays;
import java.util.Optional;

/** The replica types a PyTorchJob may have, in the order Muster reports them (Master first). */
public enum ReplicaType {

    MASTER("Master"),
    WORKER("Worker");

    private final String specName;

    ReplicaType(String specName) {
        this.specName = specName;
    }

    /** The key under {@code spec.pytorchReplicaSpecs}, e.g. {@code Master}. */
    public String specName() {
        return specName;
    }

    /** The lower-case name Kubeflow uses in pod names and labels, e.g. {@code master}. */
    public String label() {
        return specName.toLowerCase(java.util.Locale.ROOT);
    }

    public static Optional<ReplicaType> fromSpecName(String name) {
        return Arrays.stream(values()).filter(type -> type.specName.equals(name)).findFirst();
    }
}
