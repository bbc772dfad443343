package dev.muster.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.resource.ResourceList;

class JobDemandTest {

    @Test
    void theSeedJobDemandsCpu4010mAndMemory4Gi() {
        PyTorchJob job = Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), PyTorchJob.class);

        JobDemand demand = JobDemand.of(job);

        assertThat(demand.total()).isEqualTo(ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi")));
        assertThat(demand.total()).hasToString("cpu=4010m, memory=4Gi");
        assertThat(demand.replicas().get(ReplicaType.MASTER))
                .isEqualTo(new JobDemand.ReplicaDemand(1, ResourceList.parse(Map.of("cpu", "10m"))));
        assertThat(demand.replicas().get(ReplicaType.WORKER))
                .isEqualTo(new JobDemand.ReplicaDemand(2, ResourceList.parse(Map.of("cpu", "2", "memory", "2Gi"))));
        assertThat(demand.pods()).isEqualTo(3);
        assertThat(demand.podCounts()).containsExactly(Map.entry(ReplicaType.MASTER, 1), Map.entry(ReplicaType.WORKER, 2));
    }

    @Test
    void aReplicaTypeWithoutReplicasHasKubeflowsDefaultOfOne() {
        PyTorchJob job = Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      template:
                        spec:
                          containers:
                          - {name: pytorch, image: i, resources: {limits: {nvidia.com/gpu: 8}}}
                """, PyTorchJob.class);

        assertThat(JobDemand.of(job).total()).isEqualTo(ResourceList.parse(Map.of("nvidia.com/gpu", "8")));
    }
}
