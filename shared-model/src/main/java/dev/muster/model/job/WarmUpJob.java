package dev.muster.model.job;

import dev.muster.model.json.Manifests;

/**
 * A made-up gang that a standby runs its service's core on while it waits (a CPU launcher and two one-GPU workers), so
 * that taking over is not the first time its JVM reads a job, decides on it or restores it. It never leaves the service.
 */
public final class WarmUpJob {

    private static final String MANIFEST = """
            {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "%2$s", "namespace": "%1$s", "uid": "%2$s"},
             "spec": {"pytorchReplicaSpecs": {
               "Master": {"replicas": 1, "template": {"spec": {"containers": [
                 {"name": "pytorch", "image": "pytorch", "resources": {"limits": {"cpu": "1"}}}]}}},
               "Worker": {"replicas": 2, "template": {"spec": {"containers": [
                 {"name": "pytorch", "image": "pytorch", "resources": {"limits": {"cpu": "2", "nvidia.com/gpu": "1"}}}]}}}}}}
            """;

    private WarmUpJob() {
    }

    /** A fresh copy, named (and with the uid) {@code name} in {@code namespace}. */
    public static PyTorchJob of(String namespace, String name) {
        return Manifests.read(MANIFEST.formatted(namespace, name), PyTorchJob.class);
    }
}
