package dev.muster.simulator.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.muster.model.validation.InvalidObjectException;

class FleetSpecTest {

    static final Path LOCAL = Path.of("..", "deploy", "local");

    @Test
    void theShippedSpecsAreValidAndSayWhichClustersSupportReservation() throws Exception {
        FleetSpec seed = FleetSpec.read(LOCAL.resolve("seed-fleet.yaml"));
        FleetSpec gpu = FleetSpec.read(LOCAL.resolve("fleet.yaml"));

        assertThat(seed.clusterNames()).containsExactly("cluster-a", "cluster-b");
        assertThat(seed.clusters()).extracting(ClusterSpec::supportsReservation).containsExactly(true, false);
        assertThat(gpu.clusterNames()).containsExactly("gpu-a", "gpu-b", "gpu-c");
        assertThat(gpu.clusters()).extracting(ClusterSpec::supportsReservation).containsExactly(true, false, true);
    }

    @Test
    void aPoolInRacksLabelsEachNodeWithItsRackBlockAndZoneAndABadTopologyIsRefused() throws Exception {
        NodePoolSpec.TopologySpec racks = new NodePoolSpec.TopologySpec(2, 2, "z1");

        assertThat(racks.labels("a10x4", 5)).containsExactlyInAnyOrderEntriesOf(java.util.Map.of(NodePoolSpec.TopologySpec.RACK, "a10x4-r2",
                NodePoolSpec.TopologySpec.BLOCK, "a10x4-b1", NodePoolSpec.TopologySpec.ZONE, "z1"));
        assertThat(new NodePoolSpec.TopologySpec(4, 0, null).labels("p", 3)).containsOnlyKeys(NodePoolSpec.TopologySpec.RACK);
        assertThat(FleetSpec.read(LOCAL.resolve("fleet.yaml")).clusters().get(0).nodePools().get(0).topology()).isNotNull();
        assertThatThrownBy(() -> FleetSpec.parse("""
                clusters:
                - name: a
                  nodePools:
                  - {name: p, count: 2, allocatable: {cpu: "1"}, topology: {nodesPerRack: 0}}
                """, "racks.yaml")).isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("clusters[0].nodePools[0].topology: needs nodesPerRack >= 1 and racksPerBlock >= 0, got 0 and 0");
    }

    @Test
    void reservationNeedsKubernetes128AndScheduler680() {
        assertThat(new ClusterSpec("c", "1.28.0", "6.8.0", null, null).supportsReservation()).isTrue();
        assertThat(new ClusterSpec("c", "v1.31.1", "6.10.2", null, null).supportsReservation()).isTrue();
        assertThat(new ClusterSpec("c", "1.27.9", "6.9.0", null, null).supportsReservation()).isFalse();
        assertThat(new ClusterSpec("c", "1.30.0", "6.7.9", null, null).supportsReservation()).isFalse();
        assertThat(new ClusterSpec("c", "1.30.0", null, null, null).supportsReservation()).isFalse();
    }

    @Test
    void aBadSpecIsRefusedNamingEveryProblem() {
        assertThatThrownBy(() -> FleetSpec.parse("""
                clusters:
                - name: a
                  nodePools:
                  - {name: gpu, count: 0, allocatable: {nvidia.com/gpu: eight}}
                - name: a
                - name: Bad_Name
                """, "broken.yaml"))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessage("cluster spec broken.yaml is invalid: clusters[0].nodePools[0].count: must be >= 1, got 0; "
                        + "clusters[0].nodePools[0].allocatable.nvidia.com/gpu: cannot parse quantity \"eight\"; "
                        + "clusters[1].name: duplicate cluster name \"a\"; "
                        + "clusters[2].name: must be a DNS label, got \"Bad_Name\"");
    }

    @Test
    void loadAndTimeSpeedAreCheckedToo() {
        assertThatThrownBy(() -> FleetSpec.parse("""
                timeSpeed: 0
                clusters:
                - name: a
                  nodePools:
                  - name: gpu
                    count: 2
                    allocatable: {nvidia.com/gpu: "8"}
                    load:
                    - {nodes: 2, requests: {nvidia.com/gpu: "9"}}
                    - {nodes: 1, requests: {cpu: lots}}
                """, "loaded.yaml"))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessage("cluster spec loaded.yaml is invalid: timeSpeed: must be a positive number, got 0.0; "
                        + "clusters[0].nodePools[0].load[0].requests.nvidia.com/gpu: asks for 9 per node, more than a node's allocatable 8; "
                        + "clusters[0].nodePools[0].load[1].requests.cpu: cannot parse quantity \"lots\"; "
                        + "clusters[0].nodePools[0].load: covers 3 nodes, the pool has 2");
    }

    @Test
    void timeRunsAtTheDeclaredSpeed() {
        FleetSpec fast = FleetSpec.parse("""
                timeSpeed: 60
                clusters:
                - {name: a}
                """, "fast.yaml");
        assertThat(fast.time().real(java.time.Duration.ofHours(1))).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(fast.withTimeSpeed(1).time().real(java.time.Duration.ofSeconds(5))).isEqualTo(java.time.Duration.ofSeconds(5));
    }
}
