package dev.muster.placement.core.inventory;

import static dev.muster.placement.core.Fleets.cluster;
import static dev.muster.placement.core.Fleets.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.gangfit.NodeState;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.inventory.ClusterInventory.PlannedPod;
import dev.muster.placement.core.inventory.ClusterInventory.Promise;

class ClusterInventoryTest {

    private static final ResourceList FOUR_GPU = ResourceList.parse(Map.of("cpu", "4", "nvidia.com/gpu", "4", "pods", "1"));

    private static String freeGpu(ClusterInventory cluster, String node) {
        return cluster.nodeStates().stream().filter(state -> state.name().equals(node)).map(NodeState::free)
                .map(free -> free.format("nvidia.com/gpu")).findFirst().orElseThrow();
    }

    private static PodSnapshot workerPod(String node) {
        return new PodSnapshot("default", "j-worker-0", node, FOUR_GPU, false);
    }

    private static ReservationSnapshot reservation(String phase, String node, String... owners) {
        return new ReservationSnapshot("j-worker-0", phase, node, FOUR_GPU, List.of(owners));
    }

    @Test
    void aPromiseHoldsCapacityUntilThePodItPromisedIsBound() {
        ClusterInventory cluster = cluster("c", 1, "96", "8", Map.of());
        cluster.promise(new Promise("uid-j", Map.of("j-worker-0", new PlannedPod("default", "j-worker-0", "c-0", FOUR_GPU, null))));
        assertThat(freeGpu(cluster, "c-0")).isEqualTo("4");

        cluster.observe(workerPod(null));
        assertThat(freeGpu(cluster, "c-0")).as("pending pod: still only promised").isEqualTo("4");
        cluster.observe(workerPod("c-0"));
        assertThat(freeGpu(cluster, "c-0")).as("bound pod counted once").isEqualTo("4");

        cluster.release("uid-j");
        assertThat(freeGpu(cluster, "c-0")).isEqualTo("4");
        cluster.podGone("default", "j-worker-0");
        assertThat(freeGpu(cluster, "c-0")).isEqualTo("8");
    }

    @Test
    void aReservationAndThePodUsingItAreCountedOnce() {
        ClusterInventory cluster = cluster("c", 1, "96", "8", Map.of());
        cluster.promise(new Promise("uid-j", Map.of("j-worker-0", new PlannedPod("default", "j-worker-0", "c-0", FOUR_GPU, "j-worker-0"))));

        cluster.observe(reservation(Reservation.PENDING, null));
        assertThat(freeGpu(cluster, "c-0")).as("pending reservation holds nothing; the promise does").isEqualTo("4");
        cluster.observe(reservation(Reservation.AVAILABLE, "c-0"));
        assertThat(freeGpu(cluster, "c-0")).as("held by the reservation only").isEqualTo("4");
        cluster.observe(workerPod("c-0"));
        cluster.observe(reservation(Reservation.SUCCEEDED, "c-0", "default/j-worker-0"));
        assertThat(freeGpu(cluster, "c-0")).as("the pod, not the used-up reservation").isEqualTo("4");
        cluster.observe(reservation(Reservation.AVAILABLE, "c-0", "default/j-worker-0"));
        assertThat(freeGpu(cluster, "c-0")).as("a shared reservation less its owner pod").isEqualTo("4");
    }

    @Test
    void readinessNeedsAReachableMemberWithASchedulableNode() {
        ClusterInventory cluster = new ClusterInventory("c");
        assertThat(cluster.isReady()).isFalse();
        cluster = cluster("c", 0, "96", "8", Map.of());
        assertThat(cluster.isReady()).as("no nodes").isFalse();
        cluster.observe(node("c-0", "96", "8"));
        assertThat(cluster.isReady()).isTrue();
        cluster.nodeGone("c-0");
        assertThat(cluster.isReady()).isFalse();
    }
}
