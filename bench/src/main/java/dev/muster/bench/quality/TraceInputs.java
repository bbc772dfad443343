package dev.muster.bench.quality;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Reads the real traces of {@code ../shared/traces} into the simulator's inputs, by the documented rules below,
 * and reads and writes the simulator's own job CSV, so any job stream can be replayed.
 * <ul>
 * <li><b>Nodes.</b> The openb node list ({@code sn,cpu_milli,memory_mib,gpu,model}) or the GFS spot-GPU list
 * ({@code gpu_model,gpu_capacity_num,cpu_num,node_name}; it has no memory, so each vCPU gets 8 GiB).</li>
 * <li><b>Clusters.</b> Nodes are grouped by GPU model (CPU-only nodes form their own group), as fleets are
 * usually built, and each group is cut, in node order, into member clusters of at most {@code clusterSize}
 * nodes, named {@code <model>-<n>}.</li>
 * <li><b>Jobs.</b> Each row of the openb pod trace is one job, in creation order. Its gang size is drawn,
 * seeded: a GPU pod becomes 1, 2, 4 or 8 identical workers with probability 50, 20, 20 and 10 %; a CPU-only
 * pod stays one. A worker asks for the pod's CPU and memory and its GPUs, a fractional GPU share counting as
 * one whole GPU (Kubernetes' {@code nvidia.com/gpu} is whole). The duration is the pod's lifetime
 * (deletion − creation), at least 60 s and at most 8 h; a pod never deleted runs 8 h. The trace's creation
 * times are no arrival process (nine in ten pods are created in its last fifth, and on average 17 of its 6,212
 * GPUs are busy), so only its order is kept: jobs arrive as a seeded Poisson process whose rate makes the
 * offered GPU load {@code load} of the fleet's GPUs, and the stream is replayed {@code repeat} times (new
 * draws each time) so that the run is long against the 8 h jobs.</li>
 * <li><b>Tenants.</b> The Helios Venus virtual clusters with a GPU quota on 2020-09-01 (16 of them); each job
 * goes to one, seeded, with probability proportional to its quota, which is also its share of the fleet
 * as the tenant's guaranteed {@code min}.</li>
 * <li><b>Member-local jobs.</b> A share of the jobs, seeded, is submitted by a member's own users straight to
 * that member (a random one), not through Muster: capacity Muster learns about only from the inventory.</li>
 * </ul>
 */
final class TraceInputs {

    /** A node of the fleet, with the member cluster it belongs to. */
    record Node(String cluster, String name, long cpuMilli, long memoryMib, int gpu, String model) {
    }

    /** A tenant's share of the fleet's GPUs (its quota over the sum of all quotas). */
    record Tenant(String name, double share) {
    }

    static final String DEFAULT_TRACES = "../shared/traces";
    static final long MIN_DURATION = 60;
    static final long MAX_DURATION = 8 * 3600;
    private static final long GIB_PER_VCPU_MIB = 8 * 1024;

    private TraceInputs() {
    }

    static Path openbNodes(Path traces) {
        return traces.resolve("alibaba-clusterdata/cluster-trace-gpu-v2023/openb_node_list_all_node.csv");
    }

    static Path gfsNodes(Path traces) {
        return traces.resolve("alibaba-clusterdata/cluster-trace-v2026-spot-gpu/node_info_df.csv");
    }

    static Path openbPods(Path traces) {
        return traces.resolve("alibaba-clusterdata/cluster-trace-gpu-v2023/openb_pod_list_default.csv");
    }

    static Path heliosQuotas(Path traces) {
        return traces.resolve("helios-venus/cluster_gpu_number.csv");
    }

    /** The nodes of a node list (openb or GFS, told apart by the header), split into clusters by the rule above. */
    static List<Node> nodes(Path nodeList, int clusterSize) {
        List<String> lines = lines(nodeList);
        String header = lines.get(0);
        Map<String, List<long[]>> byModel = new TreeMap<>();
        Map<String, List<String>> names = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            String model;
            long cpuMilli;
            long memoryMib;
            int gpu;
            String name;
            if (header.startsWith("sn,")) {
                name = fields[0];
                cpuMilli = Long.parseLong(fields[1]);
                memoryMib = Long.parseLong(fields[2]);
                gpu = Integer.parseInt(fields[3]);
                model = fields.length > 4 && !fields[4].isBlank() ? fields[4] : "cpu";
            } else if (header.startsWith("gpu_model,")) {
                model = fields[0];
                gpu = Integer.parseInt(fields[1]);
                cpuMilli = Long.parseLong(fields[2]) * 1000;
                memoryMib = Long.parseLong(fields[2]) * GIB_PER_VCPU_MIB;
                name = "node-" + fields[3];
            } else {
                throw new IllegalArgumentException(nodeList + ": not an openb (sn,cpu_milli,...) or GFS (gpu_model,...) node list");
            }
            if (gpu == 0) {
                model = "cpu";
            }
            byModel.computeIfAbsent(model, ignored -> new ArrayList<>()).add(new long[] {cpuMilli, memoryMib, gpu});
            names.computeIfAbsent(model, ignored -> new ArrayList<>()).add(name);
        }
        List<Node> nodes = new ArrayList<>();
        byModel.forEach((model, shapes) -> {
            String prefix = model.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
            for (int i = 0; i < shapes.size(); i++) {
                long[] shape = shapes.get(i);
                nodes.add(new Node(prefix + "-" + (i / clusterSize), names.get(model).get(i), shape[0], shape[1], (int) shape[2], model));
            }
        });
        return nodes;
    }

    /** The Helios Venus tenants with a GPU quota on the day, and their shares. */
    static List<Tenant> tenants(Path quotas, String day) {
        List<String> lines = lines(quotas);
        String[] header = lines.get(0).split(",");
        String[] row = lines.stream().filter(line -> line.startsWith(day + ",")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(quotas + " has no row for " + day)).split(",");
        Map<String, Integer> quota = new LinkedHashMap<>();
        for (int i = 1; i < header.length; i++) {
            if (!"total".equals(header[i]) && Integer.parseInt(row[i]) > 0) {
                quota.put(header[i], Integer.parseInt(row[i]));
            }
        }
        double total = quota.values().stream().mapToInt(Integer::intValue).sum();
        List<Tenant> tenants = new ArrayList<>();
        quota.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(entry -> tenants.add(new Tenant(entry.getKey(), entry.getValue() / total)));
        return tenants;
    }

    /**
     * The job stream of the openb pod trace by the rules above.
     *
     * @param fleetGpus  the fleet's GPUs, which the offered load is relative to
     * @param load       the offered GPU load to compress arrivals to, e.g. 0.9
     * @param localShare the share of jobs submitted straight to a member
     * @param clusters   how many member clusters there are, for member-local jobs
     * @param repeat     how many times the trace is replayed, one after the other
     */
    static List<SimulatedJob> openbJobs(Path podTrace, List<Tenant> tenants, long fleetGpus, double load, double localShare, int clusters,
                                        int repeat, long seed) {
        List<String> lines = lines(podTrace);
        Random random = new Random(seed);
        record Row(long created, long duration, long cpuMilli, long memoryMib, int gpu, int workers) {
        }
        List<String[]> pods = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            pods.add(line.split(",", -1));
        }
        pods.sort(Comparator.comparingLong(fields -> Long.parseLong(fields[8])));
        List<Row> rows = new ArrayList<>();
        for (int round = 0; round < repeat; round++) {
            for (String[] fields : pods) {
                long cpu = Long.parseLong(fields[1]);
                long memory = Long.parseLong(fields[2]);
                int gpu = Integer.parseInt(fields[3]);
                long created = Long.parseLong(fields[8]);
                long deleted = fields[9].isBlank() ? created + MAX_DURATION : Long.parseLong(fields[9]);
                long duration = Math.max(MIN_DURATION, Math.min(MAX_DURATION, deleted - created));
                int roll = random.nextInt(10);
                int workers = gpu == 0 ? 1 : roll < 5 ? 1 : roll < 7 ? 2 : roll < 9 ? 4 : 8;
                rows.add(new Row(created, duration, cpu, memory, gpu, workers));
            }
        }
        double gpuSeconds = rows.stream().mapToDouble(row -> (double) row.gpu() * row.workers() * row.duration()).sum();
        // Offered load = GPU-seconds / (fleet GPUs x arrival span): the mean gap between arrivals that gives the target load.
        double meanGap = gpuSeconds / (fleetGpus * load) / rows.size();
        List<SimulatedJob> jobs = new ArrayList<>(rows.size());
        double arrival = 0;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            String tenant = pick(tenants, random.nextDouble());
            boolean local = random.nextDouble() < localShare;
            jobs.add(new SimulatedJob(i, Math.round(arrival), row.duration(), tenant, row.workers(),
                    new SimulatedJob.PodShape(row.cpuMilli(), row.memoryMib(), row.gpu()), local ? random.nextInt(clusters) : -1));
            arrival += -Math.log(1 - random.nextDouble()) * meanGap;
        }
        return jobs;
    }

    private static String pick(List<Tenant> tenants, double roll) {
        double sum = 0;
        for (Tenant tenant : tenants) {
            sum += tenant.share();
            if (roll < sum) {
                return tenant.name();
            }
        }
        return tenants.get(tenants.size() - 1).name();
    }

    /** The simulator's own job CSV: {@code arrival_s,duration_s,tenant,workers,cpu_milli,memory_mib,gpu,local_cluster}. */
    static final String JOB_CSV_HEADER = "arrival_s,duration_s,tenant,workers,cpu_milli,memory_mib,gpu,local_cluster";

    static List<SimulatedJob> readJobs(Path csv) {
        List<String> lines = lines(csv);
        if (!lines.get(0).equals(JOB_CSV_HEADER)) {
            throw new IllegalArgumentException(csv + ": the first line must be " + JOB_CSV_HEADER);
        }
        List<SimulatedJob> jobs = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] fields = lines.get(i).split(",", -1);
            try {
                jobs.add(new SimulatedJob(i - 1, Long.parseLong(fields[0]), Long.parseLong(fields[1]), fields[2], Integer.parseInt(fields[3]),
                        new SimulatedJob.PodShape(Long.parseLong(fields[4]), Long.parseLong(fields[5]), Integer.parseInt(fields[6])),
                        fields.length > 7 && !fields[7].isBlank() ? Integer.parseInt(fields[7]) : -1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        jobs.sort(Comparator.comparingLong(SimulatedJob::arrival));
        return jobs;
    }

    static void writeJobs(List<SimulatedJob> jobs, Path csv) {
        StringBuilder text = new StringBuilder(JOB_CSV_HEADER).append('\n');
        for (SimulatedJob job : jobs) {
            text.append(job.arrival()).append(',').append(job.duration()).append(',').append(job.tenant()).append(',').append(job.workers())
                    .append(',').append(job.worker().cpuMilli()).append(',').append(job.worker().memoryMib()).append(',')
                    .append(job.worker().gpu()).append(',').append(job.localCluster() < 0 ? "" : String.valueOf(job.localCluster())).append('\n');
        }
        write(csv, text.toString());
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            if (lines.isEmpty()) {
                throw new IllegalArgumentException(file + " is empty");
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath() + " (run from the repository root, beside ../shared/traces,"
                    + " or pass --traces DIR)", e);
        }
    }
}
