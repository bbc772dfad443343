package dev.muster.bench.quality;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The quality simulator at planning scale: {@code clusters x nodes} (default 100 x 1,000 = 100,000 nodes, each
 * drawn, seeded, from the openb node list's shapes) and {@code jobs} jobs (default 1,000,000: the openb stream
 * replayed as often as needed), under Muster's default policy (node fit with reservation). Prints the decisions
 * per CPU-second of the quota and placement cores, which is how far one placement instance goes.
 * <pre>
 * java -Xmx8g -cp bench/target/bench.jar dev.muster.bench.quality.PlacementAtScale [--clusters 100] [--nodes 1000] [--jobs 1000000]
 *      [--load 0.9] [--local-share 0.3] [--seed 2026] [--traces ../shared/traces]
 * </pre>
 */
public final class PlacementAtScale {

    private PlacementAtScale() {
    }

    public static void main(String[] args) {
        PlacementQuality.Options options = PlacementQuality.Options.parse(args);
        Path traces = Path.of(options.value("traces", TraceInputs.DEFAULT_TRACES));
        int clusters = Integer.parseInt(options.value("clusters", "100"));
        int nodesPerCluster = Integer.parseInt(options.value("nodes", "1000"));
        int jobCount = Integer.parseInt(options.value("jobs", "1000000"));
        double load = Double.parseDouble(options.value("load", "0.9"));
        double localShare = Double.parseDouble(options.value("local-share", "0.3"));
        long seed = Long.parseLong(options.value("seed", "2026"));

        List<TraceInputs.Node> shapes = TraceInputs.nodes(TraceInputs.openbNodes(traces), Integer.MAX_VALUE);
        Random random = new Random(seed);
        List<TraceInputs.Node> nodes = new ArrayList<>(clusters * nodesPerCluster);
        for (int c = 0; c < clusters; c++) {
            for (int n = 0; n < nodesPerCluster; n++) {
                TraceInputs.Node shape = shapes.get(random.nextInt(shapes.size()));
                nodes.add(new TraceInputs.Node("member-" + c, "member-" + c + "-node-" + n, shape.cpuMilli(), shape.memoryMib(), shape.gpu(),
                        shape.model()));
            }
        }
        long gpus = nodes.stream().mapToLong(TraceInputs.Node::gpu).sum();
        List<TraceInputs.Tenant> tenants = TraceInputs.tenants(TraceInputs.heliosQuotas(traces), "2020-09-01");
        int traceSize = TraceInputs.openbJobs(TraceInputs.openbPods(traces), tenants, gpus, load, localShare, clusters, 1, seed).size();
        int repeat = (jobCount + traceSize - 1) / traceSize;
        List<SimulatedJob> jobs = TraceInputs.openbJobs(TraceInputs.openbPods(traces), tenants, gpus, load, localShare, clusters, repeat, seed)
                .subList(0, jobCount);
        System.out.printf(Locale.ROOT, "Fleet: %d clusters x %d nodes = %d nodes, %d GPUs. Jobs: %,d over %.1f simulated days.%n", clusters,
                nodesPerCluster, nodes.size(), gpus, jobs.size(), jobs.get(jobs.size() - 1).arrival() / 86400.0);

        long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long wallBefore = System.nanoTime();
        SimulationResult result = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, QualitySimulation.Settings.defaults(), nodes, tenants,
                jobs).reportingProgress(line -> System.out.printf(Locale.ROOT, "  %s, %.0f s so far%n", line,
                        (System.nanoTime() - wallBefore) / 1e9)).run();
        double cpuSeconds = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore) / 1e9;
        double wallSeconds = (System.nanoTime() - wallBefore) / 1e9;

        System.out.print(SimulationResult.table(List.of(result)));
        double placementCpu = result.placementMicrosPerCall() * result.placementCalls() / 1e6;
        double quotaCpu = result.quotaMicrosPerCall() * result.quotaCalls() / 1e6;
        System.out.printf(Locale.ROOT, "%nSimulation: %.0f s of CPU (%.0f s wall) for %,d jobs.%n", cpuSeconds, wallSeconds, jobs.size());
        System.out.printf(Locale.ROOT, "Placement core: %,d decisions (%,d placed) in %.1f CPU-s: %,.0f decisions per CPU-second (%.0f µs each).%n",
                result.placementCalls(), result.placements(), placementCpu, result.placementCalls() / placementCpu, result.placementMicrosPerCall());
        System.out.printf(Locale.ROOT, "Quota core: %,d decisions in %.1f CPU-s: %,.0f decisions per CPU-second (%.0f µs each).%n",
                result.quotaCalls(), quotaCpu, result.quotaCalls() / quotaCpu, result.quotaMicrosPerCall());
        System.out.printf(Locale.ROOT, "Jobs placed per CPU-second of both cores: %,.0f.%n", result.placements() / (placementCpu + quotaCpu));
    }
}
