package dev.muster.placement.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyRequest;
import dev.muster.placement.core.Fleets;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.inventory.ClusterInventory;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** Invariants of topology-aware placement over random racked fleets and gangs. */
class DomainFitProperties {

    private static List<ClusterInventory> fleet(List<Integer> racksPerCluster, int nodesPerRack, List<Integer> busyGpus) {
        List<ClusterInventory> fleet = new ArrayList<>();
        int busy = 0;
        for (int c = 0; c < racksPerCluster.size(); c++) {
            ClusterInventory cluster = Fleets.racked("c" + c, racksPerCluster.get(c), nodesPerRack, "96", "8");
            for (int node = 0; node < racksPerCluster.get(c) * nodesPerRack; node++) {
                int gpus = busyGpus.get(busy++ % busyGpus.size());
                if (gpus > 0) {
                    cluster.observe(Fleets.load("busy-" + node, "c" + c + "-" + node, "1", String.valueOf(gpus)));
                }
            }
            fleet.add(cluster);
        }
        return fleet;
    }

    private static GangPlanner.Options plan(PyTorchJob job, List<ClusterInventory> fleet) {
        return GangPlanner.plan(job, null, fleet, Map.of(), Instant.EPOCH, cluster -> FitMode.NODE, TopologyLevels.DEFAULT);
    }

    @Property(tries = 300)
    void aRequiredGangNeverSpansTwoDomainsAndTheBoundChoiceIsTheRankingsFirst(
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 4) Integer> racksPerCluster,
            @ForAll @IntRange(min = 1, max = 4) int nodesPerRack,
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 8) Integer> busyGpus,
            @ForAll @IntRange(min = 1, max = 10) int workers,
            @ForAll @IntRange(min = 1, max = 8) int gpuPerWorker,
            @ForAll boolean block) {
        List<ClusterInventory> fleet = fleet(racksPerCluster, nodesPerRack, busyGpus);
        String level = block ? TopologyLevels.BLOCK : TopologyLevels.RACK;
        PyTorchJob job = Fleets.asking(Fleets.job("j", workers, String.valueOf(gpuPerWorker)), TopologyRequest.REQUIRED, level);

        GangPlanner.Options options = plan(job, fleet);

        for (Fits fits : options.ranked()) {
            ClusterInventory cluster = fleet.stream().filter(candidate -> candidate.cluster().equals(fits.cluster())).findFirst().orElseThrow();
            assertThat(fits.plan().values().stream().map(node -> cluster.index().node(node).labels().get(level)).collect(Collectors.toSet()))
                    .containsExactly(fits.domain().value());
        }
        assertThat(GangPlanner.choose(job, null, fleet, Map.of(), Instant.EPOCH, cluster -> FitMode.NODE, TopologyLevels.DEFAULT).best())
                .isEqualTo(options.best());
    }

    @Property(tries = 300)
    void aPreferenceNeverRefusesAGangTheClusterHolds(
            @ForAll @Size(min = 1, max = 4) List<@IntRange(min = 1, max = 4) Integer> racksPerCluster,
            @ForAll @IntRange(min = 1, max = 4) int nodesPerRack,
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 8) Integer> busyGpus,
            @ForAll @IntRange(min = 1, max = 10) int workers,
            @ForAll @IntRange(min = 1, max = 8) int gpuPerWorker) {
        List<ClusterInventory> fleet = fleet(racksPerCluster, nodesPerRack, busyGpus);
        PyTorchJob plain = Fleets.job("j", workers, String.valueOf(gpuPerWorker));
        PyTorchJob preferring = Fleets.asking(Fleets.job("j", workers, String.valueOf(gpuPerWorker)), TopologyRequest.PREFERRED, TopologyLevels.RACK);

        assertThat(plan(preferring, fleet).ranked()).extracting(Fits::cluster).containsExactlyInAnyOrderElementsOf(
                plan(plain, fleet).ranked().stream().map(Fits::cluster).toList());
    }
}
