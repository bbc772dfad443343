package dev.muster.simulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.model.resource.ResourceList;
import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Each simulated cluster is observed only through its API server, reached with its kubeconfig, as Muster will. */
class SimulatedFleetTest {


    @Test
    void eachClusterWritesAKubeconfigThatReachesItsOwnApiServer(@TempDir Path kubeconfigs) throws Exception {
        FleetSpec spec = FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml"));
        try (SimulatedFleet fleet = SimulatedFleet.start(spec, kubeconfigs)) {
            for (SimulatedCluster cluster : fleet.clusters()) {
                assertThat(Files.readString(kubeconfigs.resolve(cluster.name() + ".kubeconfig")))
                        .contains("server: " + cluster.url()).contains("current-context: " + cluster.name());
            }
        }
    }

    @Test
    void everyClusterServesItsNodesAtItsOwnAddress(@TempDir Path kubeconfigs) throws Exception {
        FleetSpec spec = FleetSpec.read(Path.of("..", "deploy", "local", "fleet.yaml"));
        try (SimulatedFleet fleet = SimulatedFleet.start(spec, kubeconfigs);
             KubernetesClient gpuA = fleet.cluster("gpu-a").orElseThrow().connect();
             KubernetesClient gpuB = fleet.cluster("gpu-b").orElseThrow().connect();
             KubernetesClient gpuC = fleet.cluster("gpu-c").orElseThrow().connect()) {

            List<Node> aNodes = gpuA.nodes().list().getItems();
            assertThat(aNodes).hasSize(4).allSatisfy(node -> {
                assertThat(ResourceList.fromQuantities(node.getStatus().getAllocatable()).amount("nvidia.com/gpu")).isEqualByComparingTo("8");
                assertThat(node.getStatus().getConditions()).anyMatch(condition -> "Ready".equals(condition.getType()) && "True".equals(condition.getStatus()));
                assertThat(node.getMetadata().getLabels()).containsEntry("nvidia.com/gpu.product", "A100-SXM4-80GB");
            });
            assertThat(gpuB.nodes().list().getItems()).hasSize(16).extracting(node -> node.getMetadata().getName())
                    .contains("gpu-b-a10x4-0", "gpu-b-a10x4-15");
            assertThat(gpuC.nodes().withLabel(SimulatedCluster.NODE_POOL_LABEL, "h100x8").list().getItems())
                    .allSatisfy(node -> assertThat(node.getSpec().getTaints()).singleElement()
                            .satisfies(taint -> assertThat(taint.getKey() + "=" + taint.getValue() + ":" + taint.getEffect())
                                    .isEqualTo("dedicated=training:NoSchedule")));
            assertThat(fleet.clusters()).extracting(SimulatedCluster::url).doesNotHaveDuplicates();
        }
    }

    @Test
    void eachClusterReportsItsVersionAndWhetherItSupportsReservation(@TempDir Path kubeconfigs) throws Exception {
        FleetSpec spec = FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml"));
        try (SimulatedFleet fleet = SimulatedFleet.start(spec, kubeconfigs);
             KubernetesClient a = fleet.cluster("cluster-a").orElseThrow().connect();
             KubernetesClient b = fleet.cluster("cluster-b").orElseThrow().connect()) {

            ConfigMap memberA = a.configMaps().inNamespace("kube-system").withName(SimulatedCluster.MEMBER_CONFIG_MAP).get();
            ConfigMap memberB = b.configMaps().inNamespace("kube-system").withName(SimulatedCluster.MEMBER_CONFIG_MAP).get();

            assertThat(a.getKubernetesVersion().getGitVersion()).isEqualTo("v1.30.2");
            assertThat(b.getKubernetesVersion().getMinor()).isEqualTo("27");
            assertThat(memberA.getData()).containsEntry("reservation", "true").containsEntry("schedulerVersion", "6.8.1");
            assertThat(memberB.getData()).containsEntry("reservation", "false");
            assertThat(memberA.getMetadata().getLabels()).isEqualTo(Map.of("region", "cn-hangzhou"));
        }
    }

    @Test
    void clustersAreIndependentApiServers(@TempDir Path kubeconfigs) throws Exception {
        FleetSpec spec = FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml"));
        try (SimulatedFleet fleet = SimulatedFleet.start(spec, kubeconfigs);
             KubernetesClient a = fleet.cluster("cluster-a").orElseThrow().connect();
             KubernetesClient b = fleet.cluster("cluster-b").orElseThrow().connect()) {

            a.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("only-on-a").endMetadata()
                    .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();

            assertThat(a.pods().inNamespace("default").list().getItems()).hasSize(1);
            assertThat(b.pods().inNamespace("default").list().getItems()).isEmpty();
        }
    }

    @Test
    void preExistingLoadFragmentsTheFreeCapacitySoThatNoNodeHoldsAnEightGpuWorker(@TempDir Path kubeconfigs) throws Exception {
        FleetSpec spec = FleetSpec.read(Path.of("..", "deploy", "local", "fleet.yaml"));
        try (SimulatedFleet fleet = SimulatedFleet.start(spec, kubeconfigs);
             KubernetesClient gpuB = fleet.cluster("gpu-b").orElseThrow().connect()) {
            List<io.fabric8.kubernetes.api.model.Pod> load = gpuB.pods().inNamespace(SimulatedCluster.LOAD_NAMESPACE).list().getItems();
            assertThat(load).hasSize(8).allSatisfy(pod -> {
                assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
                assertThat(pod.getSpec().getNodeName()).startsWith("gpu-b-a10x4-");
            });
            // 48 GPUs are free on gpu-b in all, yet an 8-GPU pod has no node to go to.
            gpuB.pods().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                    .withNewMetadata().withName("big-worker").withNamespace("default").endMetadata()
                    .withNewSpec().addNewContainer().withName("pytorch").withImage("pytorch").withNewResources()
                    .withLimits(java.util.Map.of("nvidia.com/gpu", new io.fabric8.kubernetes.api.model.Quantity("8"))).endResources()
                    .endContainer().endSpec().build()).create();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).untilAsserted(() -> {
                var pod = gpuB.pods().inNamespace("default").withName("big-worker").get();
                assertThat(pod.getSpec().getNodeName()).isNull();
                assertThat(pod.getStatus().getConditions()).anySatisfy(condition -> assertThat(condition.getMessage())
                        .isEqualTo("no node has 8 nvidia.com/gpu free for pod big-worker (largest free: 4 on node gpu-b-a10x4-10)"));
            });
        }
    }
}
