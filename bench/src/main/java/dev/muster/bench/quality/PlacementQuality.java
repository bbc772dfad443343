package dev.muster.bench.quality;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Placement quality on real traces: the same job stream through each placement policy, in virtual time, with
 * Muster's quota and placement cores deciding. Prints a table and writes a summary CSV, each tenant's waits,
 * the time series and a PNG chart into the output folder.
 * <pre>
 * java -cp bench/target/bench.jar dev.muster.bench.quality.PlacementQuality [--nodes openb|gfs|FILE] [--jobs FILE]
 *      [--load 1.0] [--local-share 0.3] [--repeat 8] [--cluster-size 300] [--seed 2026] [--traces ../shared/traces]
 *      [--out bench/target/quality] [--policies sum-estimate,node-fit,node-fit+reservation,node-fit+reservation+fragmentation]
 * </pre>
 */
public final class PlacementQuality {

    private PlacementQuality() {
    }

    public static void main(String[] args) {
        Options options = Options.parse(args);
        Inputs inputs = Inputs.read(options);
        List<TraceInputs.Node> nodes = inputs.nodes();
        List<TraceInputs.Tenant> tenants = inputs.tenants();
        List<SimulatedJob> jobs = inputs.jobs();
        Path out = inputs.out();

        List<SimulationResult> results = new ArrayList<>();
        List<String> chosen = List.of(options.value("policies", Arrays.stream(PlacementPolicy.values()).map(PlacementPolicy::label)
                .collect(Collectors.joining(","))).split(","));
        for (PlacementPolicy policy : Arrays.stream(PlacementPolicy.values()).filter(policy -> chosen.contains(policy.label())).toList()) {
            long begin = System.nanoTime();
            SimulationResult result = new QualitySimulation(policy, SimulationSettings.defaults(), nodes, tenants, jobs).run();
            System.out.printf(Locale.ROOT, "  %s simulated in %.1f s%n", policy.label(), (System.nanoTime() - begin) / 1e9);
            results.add(result);
        }
        System.out.println();
        System.out.print(SimulationResult.table(results));
        long fleetGpus = nodes.stream().mapToLong(TraceInputs.Node::gpu).sum();
        System.out.println();
        results.forEach(result -> System.out.println(result.policy().label() + ": " + IdleGpus.describe(result.samples(), fleetGpus)));
        results.forEach(result -> System.out.println(result.policy().label() + ": " + UnallocatedGpus.of(result.samples(), inputs.lastArrival()).describe()));
        TraceInputs.write(out.resolve("summary.csv"), SimulationResult.summaryCsv(results));
        TraceInputs.write(out.resolve("tenants.csv"), SimulationResult.tenantCsv(results));
        TraceInputs.write(out.resolve("timeseries.csv"), SimulationResult.timeSeriesCsv(results));
        Charts.write(results, inputs.title(), out.resolve("quality.png"));
        System.out.println();
        System.out.println("Wrote " + out.resolve("summary.csv") + ", tenants.csv, timeseries.csv and quality.png");
    }

    /**
     * The fleet, tenants and job stream the options name, the stream written to {@code jobs.csv} in the output folder.
     *
     * @param title what a chart says of the run
     */
    record Inputs(List<TraceInputs.Node> nodes, List<TraceInputs.Tenant> tenants, List<SimulatedJob> jobs, Path out, String title) {

        static Inputs read(Options options) {
            Path traces = Path.of(options.value("traces", TraceInputs.DEFAULT_TRACES));
            String nodeList = options.value("nodes", "openb");
            Path nodesFile = switch (nodeList) {
                case "openb" -> TraceInputs.openbNodes(traces);
                case "gfs" -> TraceInputs.gfsNodes(traces);
                default -> Path.of(nodeList);
            };
            int clusterSize = Integer.parseInt(options.value("cluster-size", "300"));
            long seed = Long.parseLong(options.value("seed", "2026"));
            double load = Double.parseDouble(options.value("load", "1.0"));
            double localShare = Double.parseDouble(options.value("local-share", "0.3"));
            int repeat = Integer.parseInt(options.value("repeat", "8"));
            Path out = Path.of(options.value("out", "bench/target/quality"));

            List<TraceInputs.Node> nodes = TraceInputs.nodes(nodesFile, clusterSize);
            long gpus = nodes.stream().mapToLong(TraceInputs.Node::gpu).sum();
            long clusters = nodes.stream().map(TraceInputs.Node::cluster).distinct().count();
            List<TraceInputs.Tenant> tenants = TraceInputs.tenants(TraceInputs.heliosQuotas(traces), "2020-09-01");
            List<SimulatedJob> jobs = options.has("jobs") ? TraceInputs.readJobs(Path.of(options.value("jobs", "")))
                    : TraceInputs.openbJobs(TraceInputs.openbPods(traces), tenants, gpus, load, localShare, (int) clusters, repeat, seed);
            TraceInputs.writeJobs(jobs, out.resolve("jobs.csv"));
            long musterJobs = jobs.stream().filter(job -> !job.isLocal()).count();
            System.out.printf(Locale.ROOT, "Fleet: %d nodes, %d GPUs in %d member clusters (%s, at most %d nodes each). Jobs: %d (%d through Muster,"
                            + " %d member-local), %d tenants, arrivals over %.1f h; stream in %s%n", nodes.size(), gpus, clusters, nodesFile.getFileName(),
                    clusterSize, jobs.size(), musterJobs, jobs.size() - musterJobs, tenants.size(),
                    jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).arrival() / 3600.0, out.resolve("jobs.csv"));
            return new Inputs(nodes, tenants, jobs, out, String.format(Locale.ROOT, "%s: %d nodes, %d GPUs, %d clusters; %d jobs at %.0f%% offered"
                    + " GPU load, %.0f%% member-local", nodesFile.getFileName(), nodes.size(), gpus, clusters, jobs.size(), load * 100, localShare * 100));
        }

        /** When the last job arrived, in seconds of the run. */
        long lastArrival() {
            return jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).arrival();
        }
    }

    /** {@code --name value} pairs. */
    record Options(Map<String, String> values) {

        static Options parse(String[] args) {
            Map<String, String> values = new HashMap<>();
            for (int i = 0; i < args.length; i++) {
                if (!args[i].startsWith("--") || i + 1 >= args.length) {
                    throw new IllegalArgumentException("options are --name value pairs; got " + args[i]);
                }
                values.put(args[i].substring(2), args[++i]);
            }
            return new Options(values);
        }

        String value(String name, String otherwise) {
            return values.getOrDefault(name, otherwise);
        }

        boolean has(String name) {
            return values.containsKey(name);
        }
    }
}
