package dev.muster.bench.quality;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.muster.queue.core.queueing.StartTimes;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.StartTimeEstimates;

/**
 * How far the start-time estimate made when a job starts to wait is from when the quota core actually admits it, on
 * real traces: the queue's own replay ({@link StartTimeEstimates}, bounded as the service bounds it) at sampled
 * arrivals, once with every job's run time known exactly (the trace's) and once with the service's fallback (the median
 * run time of the tenant's last jobs that ran to their end), grouped by how many jobs waited ahead in the same queue.
 * Each admitted job runs from when it started on its member, as the service has it from placement's binding; one still
 * waiting for room runs its whole duration from now. Placement is not simulated by the estimate, but is by the run.
 * <pre>
 * java -cp bench/target/bench.jar dev.muster.bench.quality.StartTimeAccuracy [--load 1.3] [--samples 300] [the options of PlacementQuality]
 * </pre>
 */
public final class StartTimeAccuracy implements QualitySimulation.QuotaObserver {

    private static final Duration HORIZON = Duration.ofDays(14);
    private static final int REMEMBERED_PER_TENANT = 101;
    private static final int[] DEPTHS = {0, 10, 100, 1_000};

    /** One estimate made at an arrival, and the admission it is judged against. */
    private record Sample(String uid, int ahead, Instant estimate, boolean exact, Instant arrived) {
    }

    private final Map<String, Long> durations;
    private final long sampleEvery;
    private final Set<String> live = new LinkedHashSet<>();
    /** When each admitted job started on its member; absent while its gang waits for room. */
    private final Map<String, Instant> startedAt = new HashMap<>();
    private final Map<String, String> tenantOf = new HashMap<>();
    private final Map<String, Deque<Duration>> ranByTenant = new HashMap<>();
    private final Map<String, List<Sample>> pending = new HashMap<>();
    private final List<long[]> errors = new ArrayList<>();
    private final List<Sample> unknown = new ArrayList<>();
    private long arrivals;
    private long replayNanos;
    private int replays;

    private StartTimeAccuracy(List<SimulatedJob> jobs, long sampleEvery) {
        this.durations = new HashMap<>();
        jobs.forEach(job -> durations.put(job.uid(), job.duration()));
        this.sampleEvery = sampleEvery;
    }

    public static void main(String[] args) {
        PlacementQuality.Options options = PlacementQuality.Options.parse(args);
        PlacementQuality.Inputs inputs = PlacementQuality.Inputs.read(options);
        int samples = Integer.parseInt(options.value("samples", "300"));
        long musterJobs = inputs.jobs().stream().filter(job -> !job.isLocal()).count();
        StartTimeAccuracy accuracy = new StartTimeAccuracy(inputs.jobs(), Math.max(1, musterJobs / samples));
        long begin = System.nanoTime();
        new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults(), inputs.nodes(), inputs.tenants(),
                inputs.jobs()).observing(accuracy).reportingProgress(System.out::println).run();
        System.out.printf(Locale.ROOT, "%n%s: %d estimates at %d sampled arrivals that waited, %.0f ms per replay, simulated in %.0f s%n",
                inputs.title(), accuracy.replays, accuracy.replays / 2, accuracy.replayNanos / 1e6 / Math.max(1, accuracy.replays),
                (System.nanoTime() - begin) / 1e9);
        accuracy.print();
    }

    @Override
    public void arrived(QuotaAdmission quota, QuotaJob job, Instant now) {
        live.add(job.uid());
        tenantOf.put(job.uid(), job.namespace());
        if (arrivals++ % sampleEvery != 0 || !quota.isWaiting(job.uid())) {
            return;
        }
        List<JobStanding> standings = new ArrayList<>();
        for (String uid : live) {
            quota.standing(uid).ifPresent(standings::add);
        }
        JobStanding standing = quota.standing(job.uid()).orElseThrow();
        int ahead = quota.queue(standing.leaf()).indexOf(job);
        long waiting = standings.stream().filter(known -> !known.admitted()).count();
        estimate(quota, standings, job, now, ahead, waiting, true, known -> Optional.ofNullable(durations.get(known.uid())).map(Duration::ofSeconds));
        estimate(quota, standings, job, now, ahead, waiting, false, known -> median(tenantOf.get(known.uid())));
    }

    private void estimate(QuotaAdmission quota, List<JobStanding> standings, QuotaJob job, Instant now, int ahead, long waiting, boolean exact,
                          Function<QuotaJob, Optional<Duration>> expected) {
        long begin = System.nanoTime();
        StartTimeEstimates.Estimate estimate = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(), standings, now, expected,
                standing -> Optional.ofNullable(startedAt.get(standing.job().uid())), HORIZON, StartTimes.MAX_ENDS, StartTimes.MAX_WEIGHED).get(job.uid());
        replayNanos += System.nanoTime() - begin;
        replays++;
        Sample sample = new Sample(job.uid(), Math.max(0, ahead), estimate == null ? null : estimate.start(), exact, now);
        if (sample.estimate() == null) {
            unknown.add(sample);
        } else {
            pending.computeIfAbsent(job.uid(), uid -> new ArrayList<>()).add(sample);
        }
    }

    @Override
    public void admitted(String uid, Instant now) {
        // Admitted (again): it runs once its gang starts.
        startedAt.remove(uid);
        List<Sample> judged = pending.remove(uid);
        if (judged != null) {
            judged.forEach(sample -> errors.add(new long[] {sample.exact() ? 1 : 0, sample.ahead(),
                    Math.abs(Duration.between(sample.estimate(), now).toSeconds()), Duration.between(sample.arrived(), now).toSeconds()}));
        }
    }

    @Override
    public void started(String uid, Instant now) {
        startedAt.put(uid, now);
    }

    @Override
    public void finished(String uid, Instant now) {
        live.remove(uid);
        Instant started = startedAt.remove(uid);
        if (started != null) {
            Deque<Duration> ran = ranByTenant.computeIfAbsent(tenantOf.get(uid), tenant -> new ArrayDeque<>());
            ran.addLast(Duration.between(started, now));
            if (ran.size() > REMEMBERED_PER_TENANT) {
                ran.removeFirst();
            }
        }
        tenantOf.remove(uid);
    }

    private Optional<Duration> median(String tenant) {
        Deque<Duration> ran = tenant == null ? null : ranByTenant.get(tenant);
        if (ran == null || ran.isEmpty()) {
            return Optional.empty();
        }
        List<Duration> sorted = new ArrayList<>(ran);
        sorted.sort(null);
        return Optional.of(sorted.get(sorted.size() / 2));
    }

    private void print() {
        System.out.printf(Locale.ROOT, "%n%-14s %-10s %8s %9s %12s %12s %12s%n", "run times", "jobs ahead", "judged", "no estim.", "actual wait p50",
                "|error| p50", "|error| p90");
        for (boolean exact : new boolean[] {true, false}) {
            for (int bucket = 0; bucket < DEPTHS.length; bucket++) {
                int from = DEPTHS[bucket];
                int to = bucket + 1 < DEPTHS.length ? DEPTHS[bucket + 1] : Integer.MAX_VALUE;
                List<long[]> inBucket = errors.stream().filter(error -> (error[0] == 1) == exact && error[1] >= from && error[1] < to).toList();
                long noEstimate = unknown.stream().filter(sample -> sample.exact() == exact && sample.ahead() >= from && sample.ahead() < to).count();
                if (inBucket.isEmpty() && noEstimate == 0) {
                    continue;
                }
                System.out.printf(Locale.ROOT, "%-14s %-10s %8d %9d %12s %12s %12s%n", exact ? "exact" : "tenant median",
                        to == Integer.MAX_VALUE ? from + "+" : from + "-" + (to - 1), inBucket.size(), noEstimate,
                        minutes(percentile(inBucket, 3, 0.5)), minutes(percentile(inBucket, 2, 0.5)), minutes(percentile(inBucket, 2, 0.9)));
            }
        }
        System.out.println("(judged: estimates whose job was admitted within the run; errors against that admission, in minutes)");
    }

    private static long percentile(List<long[]> rows, int column, double rank) {
        if (rows.isEmpty()) {
            return -1;
        }
        long[] values = rows.stream().mapToLong(row -> row[column]).sorted().toArray();
        return values[(int) Math.min(values.length - 1, Math.floor(rank * values.length))];
    }

    private static String minutes(long seconds) {
        return seconds < 0 ? "-" : String.format(Locale.ROOT, "%.1f min", seconds / 60.0);
    }
}
