package dev.muster.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.muster.placement.core.shard.ShardRing;

/** The simulator tells the policies apart the way a user of each would see it, on fleets small enough to reason about. */
class QualitySimulationTest {

    private static final List<TraceInputs.Tenant> ONE_TENANT = List.of(new TraceInputs.Tenant("team", 1.0));
    private static final SimulatedJob.PodShape FOUR_GPUS = new SimulatedJob.PodShape(8000, 32768, 4);
    private static final SimulatedJob.PodShape EIGHT_GPUS = new SimulatedJob.PodShape(8000, 32768, 8);

    private static List<TraceInputs.Node> nodes(String cluster, int count, int gpus) {
        List<TraceInputs.Node> nodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            nodes.add(new TraceInputs.Node(cluster, cluster + "-" + i, 96_000, 786_432, gpus, "A100"));
        }
        return nodes;
    }

    private static SimulationResult run(PlacementPolicy policy, List<TraceInputs.Node> nodes, List<SimulatedJob> jobs) {
        return new QualitySimulation(policy, SimulationSettings.defaults(), nodes, ONE_TENANT, jobs).run();
    }

    @Test
    void theSumOfFreeGpusSendsAGangWhereNoNodeHoldsAWorkerAndItFailsOverWhileNodeFitPlacesItAtOnce() {
        // "frag": 8 GPUs free, 2 on each of 4 nodes; "whole": one node with 4 free.
        List<TraceInputs.Node> nodes = new ArrayList<>(nodes("frag", 4, 2));
        nodes.addAll(nodes("whole", 1, 4));
        List<SimulatedJob> jobs = List.of(new SimulatedJob(0, 0, 600, "team", 1, FOUR_GPUS, -1));

        SimulationResult estimate = run(PlacementPolicy.SUM_ESTIMATE, nodes, jobs);
        SimulationResult nodeFit = run(PlacementPolicy.NODE_FIT, nodes, jobs);

        assertThat(estimate.misplacements()).isEqualTo(1);
        assertThat(estimate.started()).isEqualTo(1);
        // Created after 2 s, pending until the 30 s toleration, placed again, created 2 s later.
        assertThat(estimate.allWaits().p50()).isEqualTo(2 + 30 + 2);
        assertThat(nodeFit.misplacements()).isZero();
        assertThat(nodeFit.allWaits().p50()).isEqualTo(2);
    }

    @Test
    void aReservationRefusedByAMemberWhoseFreeCapacityWasTakenLocallyIsPlacedElsewhereAtOnceWithoutAFailover() {
        // Two equal members; a member-local job takes all of "b-first" one second before Muster's job arrives,
        // and placement's inventory learns of it only 5 s later.
        List<TraceInputs.Node> nodes = new ArrayList<>(nodes("b-first", 1, 8));
        nodes.addAll(nodes("c-second", 1, 8));
        List<SimulatedJob> jobs = List.of(new SimulatedJob(0, 0, 3600, "team", 1, EIGHT_GPUS, 0),
                new SimulatedJob(1, 1, 600, "team", 1, EIGHT_GPUS, -1));

        SimulationResult nodeFit = run(PlacementPolicy.NODE_FIT, nodes, jobs);
        SimulationResult reservation = run(PlacementPolicy.NODE_FIT_RESERVATION, nodes, jobs);

        assertThat(nodeFit.misplacements()).isEqualTo(1);
        assertThat(nodeFit.allWaits().p50()).isEqualTo(2 + 30 + 2);
        assertThat(reservation.misplacements()).isZero();
        assertThat(reservation.refusals()).isEqualTo(1);
        // Refused after 1 s, reserved on the other member 1 s later, created 2 s after that.
        assertThat(reservation.allWaits().p50()).isEqualTo(1 + 1 + 2);
        assertThat(reservation.started()).isEqualTo(1);
    }

    @Test
    void aGangLargerThanAnyMemberNeverRunsAndIsCountedSo() {
        List<SimulatedJob> jobs = List.of(new SimulatedJob(0, 0, 600, "team", 3, EIGHT_GPUS, -1));

        SimulationResult result = run(PlacementPolicy.NODE_FIT_RESERVATION, nodes("small", 2, 8), jobs);

        assertThat(result.neverRan()).isEqualTo(1);
        assertThat(result.placements()).isZero();
    }

    @Test
    void theFleetsGpusAreAllocatedWhileTheJobRunsAndFreeAfterwards() {
        List<SimulatedJob> jobs = List.of(new SimulatedJob(0, 0, 3600, "team", 2, EIGHT_GPUS, -1));

        SimulationResult result = run(PlacementPolicy.NODE_FIT_RESERVATION, nodes("pair", 2, 8), jobs);

        assertThat(result.samples()).filteredOn(sample -> sample.time() > 60 && sample.time() < 3600).isNotEmpty()
                .allSatisfy(sample -> assertThat(sample.gpuAllocation()).isEqualTo(1.0));
        assertThat(result.samples()).filteredOn(sample -> sample.time() > 3700).allSatisfy(sample -> assertThat(sample.gpuAllocation()).isZero());
    }

    /**
     * A reservation is pinned to the node placement planned, as Muster's are: when a member-local job took that node
     * (placement's inventory not knowing yet), the reservation is refused although another node of the member is free.
     */
    @Test
    void aReservationIsPinnedToThePlannedNodeAndRefusedWhenThatNodeWasTaken() {
        List<SimulatedJob> jobs = List.of(new SimulatedJob(0, 0, 3600, "team", 1, EIGHT_GPUS, 0),
                new SimulatedJob(1, 1, 600, "team", 1, EIGHT_GPUS, -1));

        for (PlacementPolicy policy : List.of(PlacementPolicy.NODE_FIT_RESERVATION, PlacementPolicy.FRAGMENTATION)) {
            SimulationResult result = run(policy, nodes("m", 2, 8), jobs);

            assertThat(result.refusals()).as(policy.label()).isEqualTo(1);
            assertThat(result.misplacements()).as(policy.label()).isZero();
            assertThat(result.started()).as(policy.label()).isEqualTo(1);
        }
    }

    @Test
    void aGangNoneOfItsHomeShardsMembersFitsIsOfferedToTheNextShardAndPlacedThere() {
        ShardRing ring = new ShardRing(2);
        String small = IntStream.range(0, 100).mapToObj(i -> "member-" + i).filter(name -> ring.ownerOf(name) == 0).findFirst().orElseThrow();
        String large = IntStream.range(0, 100).mapToObj(i -> "member-" + i).filter(name -> ring.ownerOf(name) == 1).findFirst().orElseThrow();
        int homedAtSmall = IntStream.range(0, 100).filter(id -> ring.homeOf("job-" + id) == 0).findFirst().orElseThrow();
        List<TraceInputs.Node> nodes = new ArrayList<>(nodes(small, 1, 4));
        nodes.addAll(nodes(large, 1, 8));
        List<SimulatedJob> jobs = List.of(new SimulatedJob(homedAtSmall, 0, 600, "team", 1, EIGHT_GPUS, -1));

        QualitySimulation simulation = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), nodes,
                ONE_TENANT, jobs).shardedOver(ring);
        SimulationResult result = simulation.run();

        ShardedPlanning.Counts counts = simulation.shardCounts();
        assertThat(result.started()).isEqualTo(1);
        assertThat(counts.placedByShard()).containsExactly(0, 1);
        assertThat(counts.placedAtHome()).isZero();
        assertThat(counts.offers()).isEqualTo(1);
        // Tried at home, where the 4-GPU member cannot hold it, then on the next shard's 8-GPU member.
        assertThat(counts.decisionsByShard()).containsExactly(1, 1);
    }

    @Test
    void shardsPlaceEveryGangOnceOnTheirOwnMembersAndTheFleetRunsAsWithOneInstance() {
        List<TraceInputs.Node> nodes = new ArrayList<>();
        IntStream.range(0, 8).forEach(member -> nodes.addAll(nodes("member-" + member, 4, 8)));
        // 400 gangs of 1 to 4 eight-GPU workers over 20 minutes on 256 GPUs: a full fleet, so many gangs wait and go round the ring.
        List<SimulatedJob> jobs = IntStream.range(0, 400).mapToObj(id -> new SimulatedJob(id, id * 3L, 900, "team", 1 + id % 4, EIGHT_GPUS, -1))
                .toList();

        SimulationResult single = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), nodes,
                ONE_TENANT, jobs).shardedOver(ShardRing.single()).run();
        QualitySimulation sharded = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), nodes,
                ONE_TENANT, jobs).shardedOver(new ShardRing(4));
        SimulationResult four = sharded.run();

        ShardedPlanning.Counts counts = sharded.shardCounts();
        assertThat(four.started()).isEqualTo(400).isEqualTo(single.started());
        assertThat(four.misplacements()).isZero();
        assertThat(counts.placed()).isEqualTo(four.placements());
        assertThat(counts.offers()).as("gangs that waited went round the ring").isPositive();
        for (int shard = 0; shard < 4; shard++) {
            assertThat(counts.placedByShard()[shard] > 0).as("shard %d placed gangs", shard).isEqualTo(counts.membersByShard()[shard] > 0);
        }
        // The same gangs wait for the same full fleet: sharding changes where they go, not how long the fleet keeps them waiting.
        assertThat(four.meanAllocation()).isCloseTo(single.meanAllocation(), org.assertj.core.data.Offset.offset(0.05));
    }
}
