package dev.muster.bench.quality;

import java.util.HashMap;
import java.util.Map;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.json.Manifests;

/**
 * Each simulated job as placement sees it: a PyTorchJob of identical workers, asking for the simulation's topology if
 * any. One manifest per shape and size, reused: parsing one per job would cost more than the decisions measured.
 * Not thread-safe: asked on the simulation's thread only.
 */
final class GangManifests {

    private final TopologyRequest topology;
    private final Map<SimulatedJob.PodShape, Map<Integer, PyTorchJob>> manifests = new HashMap<>();

    GangManifests(TopologyRequest topology) {
        this.topology = topology;
    }

    PyTorchJob of(SimulatedJob job) {
        return manifests.computeIfAbsent(job.worker(), ignored -> new HashMap<>()).computeIfAbsent(job.workers(), workers -> Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: gang, namespace: default, uid: gang}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: %d
                      template:
                        metadata: {annotations: {%s}}
                        spec: {containers: [{name: pytorch, image: pytorch, resources: {requests: {cpu: %dm, memory: %dMi, nvidia.com/gpu: "%d"}}}]}
                """.formatted(workers, topology == null ? "" : (topology.required() ? TopologyRequest.REQUIRED : TopologyRequest.PREFERRED) + ": "
                + topology.level(), job.worker().cpuMilli(), job.worker().memoryMib(), job.worker().gpu()), PyTorchJob.class));
    }
}
