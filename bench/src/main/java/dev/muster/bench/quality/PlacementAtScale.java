package dev.muster.bench.quality;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import dev.muster.placement.core.shard.ShardRing;

/**
 * The quality simulator at planning scale: {@code clusters x nodes} (default 100 x 1,000 = 100,000 nodes, each
 * drawn, seeded, from the openb node list's shapes) and {@code jobs} jobs (default 1,000,000: the openb stream
 * replayed as often as needed), under Muster's default policy (node fit with reservation). Prints the decisions
 * per CPU-second of the quota and placement cores, which is how far one placement instance goes.
 * <p>
 * With {@code --shards 1,2,4}, runs the stream once per shard count with placement split over that many shards
 * ({@link ShardedPlanning}), and prints, beside the same quality figures, the gangs placed per CPU-second and per
 * wall-second of placement, each shard's share, the offers a gang took and how many were placed at home. A run fails if
 * any gang is bound twice.
 * <pre>
 * java -Xmx8g -cp bench/target/bench.jar dev.muster.bench.quality.PlacementAtScale [--clusters 100] [--nodes 1000] [--jobs 1000000]
 *      [--load 0.9] [--local-share 0.3] [--seed 2026] [--traces ../shared/traces] [--shards 1,2,4]
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

        if (options.has("shards")) {
            compareShards(options.value("shards", "1"), nodes, tenants, jobs);
            return;
        }
        long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long wallBefore = System.nanoTime();
        SimulationResult result = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), nodes, tenants,
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

    private static void compareShards(String shardCounts, List<TraceInputs.Node> nodes, List<TraceInputs.Tenant> tenants, List<SimulatedJob> jobs) {
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%n%-6s %9s %8s %7s %10s %8s %8s %11s %12s %7s %8s %9s %8s %6s  %s%n", "shards",
                "placed", "at home", "offers", "decisions", "CPU s", "wall s", "per CPU-s", "per wall-s", "GPU", "wait p95", "misplaced",
                "refused", "unrun", "CPU s by shard (members)"));
        for (String count : shardCounts.split(",")) {
            ShardRing ring = new ShardRing(Integer.parseInt(count.trim()));
            QualitySimulation simulation = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), nodes,
                    tenants, jobs).shardedOver(ring);
            long wallBefore = System.nanoTime();
            SimulationResult result = simulation.reportingProgress(line -> System.out.printf(Locale.ROOT, "  %d shards: %s, %.0f s so far%n",
                    ring.shards(), line, (System.nanoTime() - wallBefore) / 1e9)).run();
            ShardedPlanning.Counts counts = simulation.shardCounts();
            double cpuSeconds = counts.cpuNanos() / 1e9;
            double wallSeconds = counts.wallNanos() / 1e9;
            StringBuilder byShard = new StringBuilder();
            for (int shard = 0; shard < ring.shards(); shard++) {
                byShard.append(String.format(Locale.ROOT, "%s%.1f (%d)", shard == 0 ? "" : ", ", counts.cpuNanosByShard()[shard] / 1e9, counts.membersByShard()[shard]));
            }
            table.append(String.format(Locale.ROOT, "%-6d %,9d %7.1f%% %7.3f %,10d %8.1f %8.1f %,11.0f %,12.0f %6.1f%% %7ds %9d %8d %6d  %s%n", ring.shards(),
                    counts.placed(), 100.0 * counts.placedAtHome() / Math.max(1, counts.placed()), (double) counts.offers() / Math.max(1, counts.placed()),
                    counts.decisions(), cpuSeconds, wallSeconds, counts.placed() / cpuSeconds, counts.placed() / wallSeconds,
                    100 * result.meanAllocation(), result.allWaits().p95(), result.misplacements(), result.refusals(), result.neverRan(), byShard));
        }
        System.out.print(table);
        System.out.println("""
                placed: gangs placed (again after a refused reservation included); at home: placed by the shard the gang's UID picks;
                refused: reservations a member refused (its gang placed again); unrun: jobs that never started;
                offers: offers to a next shard per gang placed; CPU s and per CPU-s: the shards' decisions; wall s and per wall-s: the
                time the simulation waited for the shards' decisions, which run at once, each on its own thread. No gang was bound twice
                (the simulation stops at the first).""");
    }
}
