package dev.muster.placement.core;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.json.Manifests;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.TopologyLevels;

/** Member clusters and jobs for placement tests, built as status sync would report them. */
public final class Fleets {

    private Fleets() {
    }

    /** A reachable cluster of {@code count} identical nodes named {@code <cluster>-<i>}. */
    public static ClusterInventory cluster(String name, int count, String cpu, String gpu, Map<String, String> labels) {
        ClusterInventory cluster = new ClusterInventory(name);
        cluster.observe(new MemberSnapshot(name, true, true, labels, Instant.EPOCH));
        for (int i = 0; i < count; i++) {
            cluster.observe(node(name + "-" + i, cpu, gpu));
        }
        return cluster;
    }

    /**
     * A reachable cluster of {@code racks} racks of {@code nodesPerRack} identical nodes, named {@code <cluster>-<i>},
     * labelled with their rack ({@code r<k>}), their block of two racks ({@code b<k>}) and their host name.
     */
    public static ClusterInventory racked(String name, int racks, int nodesPerRack, String cpu, String gpu) {
        ClusterInventory cluster = new ClusterInventory(name);
        cluster.observe(new MemberSnapshot(name, true, true, Map.of(), Instant.EPOCH));
        for (int i = 0; i < racks * nodesPerRack; i++) {
            int rack = i / nodesPerRack;
            NodeSnapshot node = node(name + "-" + i, cpu, gpu);
            cluster.observe(new NodeSnapshot(node.name(), Map.of(TopologyLevels.RACK, "r" + rack, TopologyLevels.BLOCK, "b" + rack / 2,
                    TopologyLevels.HOSTNAME, node.name()), List.of(), node.allocatable(), true, false));
        }
        return cluster;
    }

    /** The job with every replica's pod template asking for a topology level ({@link TopologyRequest#REQUIRED} or {@code PREFERRED}). */
    public static PyTorchJob asking(PyTorchJob job, String annotation, String level) {
        job.getSpec().pytorchReplicaSpecs().values().forEach(replica -> {
            if (replica.template().getMetadata() == null) {
                replica.template().setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
            }
            replica.template().getMetadata().setAnnotations(Map.of(annotation, level));
        });
        return job;
    }

    public static NodeSnapshot node(String name, String cpu, String gpu) {
        return new NodeSnapshot(name, Map.of(), List.of(), ResourceList.parse(Map.of("cpu", cpu, "memory", "512Gi", "nvidia.com/gpu", gpu, "pods", "110")),
                true, false);
    }

    /** A running pod taking this much of the node. */
    public static PodSnapshot load(String name, String node, String cpu, String gpu) {
        return new PodSnapshot("load", name, node, ResourceList.parse(Map.of("cpu", cpu, "nvidia.com/gpu", gpu, "pods", "1")), false);
    }

    /** A PyTorchJob of one CPU master and {@code workers} workers of {@code gpuPerWorker} GPUs. */
    public static PyTorchJob job(String name, int workers, String gpuPerWorker) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: default, uid: uid-%s}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      restartPolicy: Never
                      template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "1"}}}]}}
                    Worker:
                      replicas: %d
                      restartPolicy: OnFailure
                      template: {spec: {containers: [{name: pytorch, image: pytorch, resources: {limits: {cpu: "4", nvidia.com/gpu: "%s"}}}]}}
                """.formatted(name, name, workers, gpuPerWorker), PyTorchJob.class);
    }

    public static List<ClusterInventory> list(ClusterInventory... clusters) {
        return new ArrayList<>(List.of(clusters));
    }
}
