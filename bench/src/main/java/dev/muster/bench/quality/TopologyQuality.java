package dev.muster.bench.quality;

import java.util.Locale;

import dev.muster.model.job.TopologyRequest;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * Topology-aware placement on real traces: the same job stream, placed by node fit with reservation on members whose
 * nodes are in racks of 16, with every gang asking for no topology, preferring one rack, then requiring one. Prints GPU
 * allocation, waits, jobs that never ran, the share of gangs of two or more pods that had every pod in one rack,
 * and placement's CPU per decision; writes {@code topology.csv}.
 * <pre>
 * java -cp bench/target/bench.jar dev.muster.bench.quality.TopologyQuality [--load 1.0] [the options of PlacementQuality]
 * </pre>
 */
public final class TopologyQuality {

    private TopologyQuality() {
    }

    public static void main(String[] args) {
        PlacementQuality.Options options = PlacementQuality.Options.parse(args);
        PlacementQuality.Inputs inputs = PlacementQuality.Inputs.read(options);
        StringBuilder csv = new StringBuilder("topology,gpu_allocation,wait_p50_s,wait_p95_s,never_ran,gangs_of_two_or_more_pods,within_one_rack,placement_us\n");
        System.out.printf(Locale.ROOT, "%n%-16s %9s %9s %9s %9s %12s %14s %13s%n", "gangs ask", "GPU alloc", "wait p50", "wait p95", "never ran",
                "gangs 2+ pods", "in one rack", "placement cpu");
        java.util.List<String> idle = new java.util.ArrayList<>();
        long fleetGpus = inputs.nodes().stream().mapToLong(TraceInputs.Node::gpu).sum();
        for (TopologyRequest asked : new TopologyRequest[] {null, new TopologyRequest(TopologyLevels.RACK, false),
                new TopologyRequest(TopologyLevels.RACK, true)}) {
            String label = asked == null ? "nothing" : (asked.required() ? "a rack, required" : "a rack, preferred");
            long begin = System.nanoTime();
            QualitySimulation simulation = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults()
                    .withTopology(asked), inputs.nodes(), inputs.tenants(), inputs.jobs());
            SimulationResult result = simulation.run();
            RackLocality racks = simulation.rackLocality();
            double share = racks.multiPod() == 0 ? 0 : 100.0 * racks.withinOneRack() / racks.multiPod();
            System.out.printf(Locale.ROOT, "%-16s %8.1f%% %8ds %8ds %9d %12d %13.1f%% %11.0fµs   (simulated in %.0f s)%n", label,
                    result.meanAllocation() * 100, result.allWaits().p50(), result.allWaits().p95(), result.neverRan(), racks.multiPod(), share,
                    result.placementMicrosPerCall(), (System.nanoTime() - begin) / 1e9);
            idle.add(label + ": " + IdleGpus.describe(result.samples(), fleetGpus));
            csv.append(String.format(Locale.ROOT, "%s,%.4f,%d,%d,%d,%d,%d,%.1f%n", label, result.meanAllocation(), result.allWaits().p50(),
                    result.allWaits().p95(), result.neverRan(), racks.multiPod(), racks.withinOneRack(), result.placementMicrosPerCall()));
        }
        TraceInputs.write(inputs.out().resolve("topology.csv"), csv.toString());
        System.out.println();
        idle.forEach(System.out::println);
        System.out.println();
        System.out.println("Wrote " + inputs.out().resolve("topology.csv"));
    }
}
