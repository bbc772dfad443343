package dev.muster.placement.core.topology;

import static dev.muster.placement.core.Fleets.asking;
import static dev.muster.placement.core.Fleets.job;
import static dev.muster.placement.core.Fleets.load;
import static dev.muster.placement.core.Fleets.racked;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyDomain;
import dev.muster.model.job.TopologyRequest;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.inventory.ClusterInventory;

class DomainFitTest {

    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

    /** Two racks of four 8-GPU nodes; rack r1 is full: 32 GPUs free, all in rack r0. */
    private static ClusterInventory oneFreeRack() {
        ClusterInventory cluster = racked("gpu-a", 2, 4, "96", "8");
        for (int node = 4; node < 8; node++) {
            cluster.observe(load("busy-" + node, "gpu-a-" + node, "8", "8"));
        }
        return cluster;
    }

    /** Four racks of four 8-GPU nodes, two of each rack's nodes full: 64 GPUs free, no more than 16 in any rack. */
    private static ClusterInventory halfFullRacks() {
        ClusterInventory cluster = racked("gpu-wide", 4, 4, "96", "8");
        for (int rack = 0; rack < 4; rack++) {
            for (int node = rack * 4; node < rack * 4 + 2; node++) {
                cluster.observe(load("busy-" + node, "gpu-wide-" + node, "8", "8"));
            }
        }
        return cluster;
    }

    private static GangPlanner.Options plan(PyTorchJob job, List<ClusterInventory> fleet) {
        return GangPlanner.plan(job, null, fleet, Map.of(), NOW, cluster -> FitMode.NODE, TopologyLevels.DEFAULT);
    }

    private static Set<String> racksOf(Fits fits, ClusterInventory cluster) {
        return fits.plan().values().stream().map(node -> cluster.index().node(node).labels().get(TopologyLevels.RACK)).collect(Collectors.toSet());
    }

    @Test
    void aRequiredRackGangGoesToTheMemberWithARackThatHoldsItNotToTheOneWithMoreGpusSpreadOverRacks() {
        ClusterInventory gpuA = oneFreeRack();
        ClusterInventory wide = halfFullRacks();
        PyTorchJob unconstrained = job("train", 4, "8");

        assertThat(plan(unconstrained, List.of(gpuA, wide)).best()).get().extracting(Fits::cluster)
                .as("without topology, the member with the most free GPUs").isEqualTo("gpu-wide");

        GangPlanner.Options options = plan(asking(job("train", 4, "8"), TopologyRequest.REQUIRED, TopologyLevels.RACK), List.of(gpuA, wide));

        Fits best = options.best().orElseThrow();
        assertThat(best.cluster()).isEqualTo("gpu-a");
        assertThat(best.domain()).isEqualTo(new TopologyDomain(TopologyLevels.RACK, "r0"));
        assertThat(racksOf(best, gpuA)).containsExactly("r0");
        assertThat(options.ranked()).extracting(Fits::cluster).containsExactly("gpu-a");
        assertThat(options.reasons()).containsEntry("gpu-wide", "no " + TopologyLevels.RACK
                + " domain of its 4 holds all 5 pods of the gang; the closest, r0, has room for its 2 largest");
    }

    @Test
    void aPreferredGangTakesTheNarrowestLevelThatHoldsItAndIsNeverRefusedForIt() {
        ClusterInventory wide = halfFullRacks();
        PyTorchJob preferring = asking(job("train", 4, "8"), TopologyRequest.PREFERRED, TopologyLevels.RACK);

        Fits inABlock = plan(preferring, List.of(wide)).best().orElseThrow();
        assertThat(inABlock.domain()).as("no rack holds it; a block of two racks does").isEqualTo(new TopologyDomain(TopologyLevels.BLOCK, "b0"));
        assertThat(inABlock.spread()).isEqualTo(1);

        Fits inARack = plan(preferring, List.of(oneFreeRack(), wide)).best().orElseThrow();
        assertThat(inARack.cluster()).as("a member where a rack holds it beats one where it spreads").isEqualTo("gpu-a");
        assertThat(inARack.spread()).isZero();

        // Eight 8-GPU workers: no block of wide holds them (16 free GPUs per rack, 32 per block), the cluster does.
        Fits anywhere = plan(asking(job("big", 8, "8"), TopologyRequest.PREFERRED, TopologyLevels.RACK), List.of(wide)).best().orElseThrow();
        assertThat(anywhere.domain()).isNull();
        assertThat(anywhere.spread()).as("rack, block, zone tried").isEqualTo(3);
        assertThat(plan(asking(job("big", 8, "8"), TopologyRequest.REQUIRED, TopologyLevels.RACK), List.of(wide)).ranked()).isEmpty();
    }

    @Test
    void amongRacksThatHoldTheGangTheFullestGoesFirstSoTheEmptiestStaysWhole() {
        ClusterInventory cluster = racked("gpu-a", 3, 4, "96", "8");
        cluster.observe(load("busy-0", "gpu-a-0", "8", "8"));
        cluster.observe(load("busy-8", "gpu-a-8", "8", "8"));
        cluster.observe(load("busy-9", "gpu-a-9", "8", "8"));

        Fits best = plan(asking(job("train", 2, "8"), TopologyRequest.REQUIRED, TopologyLevels.RACK), List.of(cluster)).best().orElseThrow();

        assertThat(best.domain().value()).isEqualTo("r2");
    }

    @Test
    void aLabelNoNodeCarriesIsSaid() {
        GangPlanner.Options options = plan(asking(job("train", 1, "8"), TopologyRequest.REQUIRED, "example.com/pod"), List.of(oneFreeRack()));

        assertThat(options.reasons()).containsEntry("gpu-a", "no node carries the topology label example.com/pod the job requires");
    }

    @Test
    void theDomainOfAPlanIsTheRequiredLevelsOrTheNarrowestPreferredOneItsNodesShare() {
        ClusterInventory wide = halfFullRacks();
        TopologyRequest rack = new TopologyRequest(TopologyLevels.RACK, false);

        assertThat(DomainFit.of(rack, TopologyLevels.DEFAULT, List.of("gpu-wide-2", "gpu-wide-3"), wide.index()::node))
                .contains(new TopologyDomain(TopologyLevels.RACK, "r0"));
        assertThat(DomainFit.of(rack, TopologyLevels.DEFAULT, List.of("gpu-wide-2", "gpu-wide-6"), wide.index()::node))
                .contains(new TopologyDomain(TopologyLevels.BLOCK, "b0"));
        assertThat(DomainFit.of(new TopologyRequest(TopologyLevels.RACK, true), TopologyLevels.DEFAULT, List.of("gpu-wide-2", "gpu-wide-6"),
                wide.index()::node)).isEmpty();
        assertThat(DomainFit.of(rack, TopologyLevels.DEFAULT, List.of("gpu-wide-2", "gone"), wide.index()::node)).isEmpty();
    }
}
