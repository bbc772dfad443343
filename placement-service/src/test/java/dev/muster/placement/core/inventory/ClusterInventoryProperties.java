package dev.muster.placement.core.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import dev.muster.gangfit.Gang;
import dev.muster.gangfit.GangPacker;
import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.NodeStates;
import dev.muster.gangfit.PodNeeds;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.inventory.ClusterInventory.PlannedPod;
import dev.muster.placement.core.inventory.ClusterInventory.Promise;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The inventory recomputes only the nodes an observation touched; whatever the order of observations and
 * reads, what it reports must be what a computation from scratch over everything it was told gives.
 */
class ClusterInventoryProperties {

    private static final List<String> NODES = List.of("n-0", "n-1", "n-2", "n-3");
    /** Each job's pods are its own, as a PyTorchJob's pods are named after it. */
    private static final List<String> PODS = List.of("job-a-worker-0", "job-a-worker-1", "job-b-worker-0", "job-b-worker-1",
            "job-c-worker-0", "job-c-worker-1");
    private static final List<String> RESERVATIONS = List.of("r-0", "r-1", "r-2");
    private static final List<String> JOBS = List.of("job-a", "job-b", "job-c");
    private static final List<String> PHASES = List.of(Reservation.PENDING, Reservation.AVAILABLE, Reservation.SUCCEEDED, Reservation.FAILED);

    @Property(tries = 400)
    void nodeStatesAreWhatACountFromScratchGives(@ForAll long seed, @ForAll @IntRange(min = 1, max = 120) int steps) {
        Random random = new Random(seed);
        ClusterInventory inventory = new ClusterInventory("c");
        FromScratch expected = new FromScratch();
        for (int step = 0; step < steps; step++) {
            switch (random.nextInt(9)) {
                case 0 -> {
                    NodeSnapshot node = node(random);
                    inventory.observe(node);
                    expected.nodes.put(node.name(), node);
                }
                case 1 -> {
                    String name = pick(random, NODES);
                    inventory.nodeGone(name);
                    expected.nodes.remove(name);
                }
                case 2, 3 -> {
                    PodSnapshot pod = new PodSnapshot("default", pick(random, PODS), random.nextInt(4) == 0 ? null : pick(random, NODES),
                            request(random), random.nextInt(5) == 0);
                    inventory.observe(pod);
                    expected.observe(pod);
                }
                case 4 -> {
                    String name = pick(random, PODS);
                    inventory.podGone("default", name);
                    expected.pods.remove("default/" + name);
                }
                case 5 -> {
                    List<String> owners = random.nextBoolean() ? List.of() : List.of("default/" + pick(random, PODS));
                    String phase = pick(random, PHASES);
                    ReservationSnapshot reservation = new ReservationSnapshot(pick(random, RESERVATIONS), phase,
                            Reservation.PENDING.equals(phase) ? null : pick(random, NODES), request(random), owners);
                    inventory.observe(reservation);
                    expected.reservations.put(reservation.name(), reservation);
                }
                case 6 -> {
                    String name = pick(random, RESERVATIONS);
                    inventory.reservationGone(name);
                    expected.reservations.remove(name);
                }
                case 7 -> {
                    Promise promise = promise(random);
                    inventory.promise(promise);
                    expected.promise(promise);
                }
                default -> {
                    String job = pick(random, JOBS);
                    inventory.release(job);
                    expected.promises.remove(job);
                }
            }
            // Reads in between, sometimes: each must see every change since the one before, and decide as a fresh index would.
            if (random.nextInt(3) == 0) {
                assertThat(inventory.nodeStates()).as("after step %d", step).isEqualTo(expected.nodeStates());
                NodeIndex fresh = NodeIndex.of(expected.nodeStates());
                Gang gang = gang(random);
                assertThat(GangPacker.pack(gang, inventory.index())).as("packing after step %d", step).isEqualTo(GangPacker.pack(gang, fresh));
                assertThat(inventory.index().partialGpuNodes()).isEqualTo(fresh.partialGpuNodes());
                assertThat(inventory.index().totalFree()).isEqualTo(fresh.totalFree());
            }
        }
        assertThat(inventory.nodeStates()).isEqualTo(expected.nodeStates());
        assertThat(inventory.index().freeGpu()).isEqualByComparingTo(expected.nodeStates().stream()
                .filter(node -> node.ready() && !node.unschedulable()).map(node -> node.free().amount("nvidia.com/gpu"))
                .reduce(java.math.BigDecimal.ZERO, java.math.BigDecimal::add));
    }

    /** The inventory's rules applied to everything at once: the model the incremental one must agree with. */
    private static final class FromScratch {

        final Map<String, NodeSnapshot> nodes = new TreeMap<>();
        final Map<String, PodSnapshot> pods = new HashMap<>();
        final Map<String, ReservationSnapshot> reservations = new HashMap<>();
        final Map<String, Map<String, PlannedPod>> promises = new HashMap<>();

        void observe(PodSnapshot pod) {
            pods.put(pod.key(), pod);
            // A promised pod seen bound is the member's from then on: it counts as a pod, never again as a promise.
            if (pod.node() != null) {
                promises.values().forEach(planned -> planned.values().removeIf(candidate -> candidate.key().equals(pod.key())));
            }
        }

        void promise(Promise promise) {
            promises.remove(promise.job());
            Map<String, PlannedPod> planned = new LinkedHashMap<>(promise.pods());
            planned.values().removeIf(pod -> pods.containsKey(pod.key()) && pods.get(pod.key()).node() != null);
            // A member holds one pod of a name: another job's promise of the same pod ends.
            promises.values().forEach(other -> other.values().removeIf(pod -> planned.values().stream().anyMatch(mine -> mine.key().equals(pod.key()))));
            promises.put(promise.job(), planned);
        }

        List<NodeState> nodeStates() {
            Map<String, ResourceList> promised = new HashMap<>();
            for (Map<String, PlannedPod> planned : promises.values()) {
                for (PlannedPod pod : planned.values()) {
                    ReservationSnapshot reservation = pod.reservation() == null ? null : reservations.get(pod.reservation());
                    boolean shown = reservation != null && (reservation.isHolding() || Reservation.SUCCEEDED.equals(reservation.phase()));
                    if (!shown) {
                        promised.merge(pod.node(), pod.request(), ResourceList::plus);
                    }
                }
            }
            List<NodeState> states = new ArrayList<>();
            for (NodeState state : NodeStates.ofSnapshots(new ArrayList<>(nodes.values()), new ArrayList<>(pods.values()),
                    new ArrayList<>(reservations.values()))) {
                ResourceList held = promised.get(state.name());
                states.add(held == null ? state : state.minus(held));
            }
            return states;
        }
    }

    private static Promise promise(Random random) {
        String job = pick(random, JOBS);
        Map<String, PlannedPod> pods = new LinkedHashMap<>();
        int count = 1 + random.nextInt(2);
        for (int i = 0; i < count; i++) {
            // Now and then a pod named as another job's: a job deleted and made again under the same name.
            String name = (random.nextInt(8) == 0 ? "reused" : job) + "-worker-" + random.nextInt(2);
            pods.put(name, new PlannedPod("default", name, pick(random, NODES), request(random),
                    random.nextBoolean() ? null : pick(random, RESERVATIONS)));
        }
        return new Promise(job, pods);
    }

    private static Gang gang(Random random) {
        List<PodNeeds> pods = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            pods.add(new PodNeeds("pod-" + i, request(random), Map.of(), null, List.of()));
        }
        return Gang.of(pods);
    }

    private static NodeSnapshot node(Random random) {
        return new NodeSnapshot(pick(random, NODES), Map.of(), List.of(),
                ResourceList.parse(Map.of("cpu", String.valueOf(16 + 16 * random.nextInt(3)), "memory", "256Gi", "nvidia.com/gpu",
                        String.valueOf(4 * random.nextInt(3)), "pods", "110")), random.nextInt(6) != 0, random.nextInt(8) == 0);
    }

    private static ResourceList request(Random random) {
        return ResourceList.parse(Map.of("cpu", String.valueOf(1 + random.nextInt(8)), "nvidia.com/gpu", String.valueOf(random.nextInt(3)),
                "pods", "1"));
    }

    private static String pick(Random random, List<String> values) {
        return values.get(random.nextInt(values.size()));
    }
}
