package dev.muster.bench.quality;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one policy achieved on the stream: GPU allocation and queue length over time, each tenant's queue wait,
 * mis-placements, jobs that never ran, and the decision cores' own CPU time.
 *
 * @param meanAllocation    the fleet's GPUs in use (Muster's and member-local jobs), averaged over the arrival span
 * @param misplacements     gangs bound to a member where they could not start, each ended by a failover
 * @param refusals          reservations a member refused before anything was created (placed again at once)
 * @param neverRan          Muster jobs that had not started when the simulation ended
 * @param waitingReports    times the quota core told a job why it waits: each is a status update in the services
 */
record SimulationResult(PlacementPolicy policy, int jobs, int started, int neverRan, double meanAllocation, long placements,
                        long misplacements, long refusals, long preemptions, long waitingReports, Map<String, Waits> waitsByTenant, Waits allWaits,
                        double placementMicrosPerCall, long placementCalls, double quotaMicrosPerCall, long quotaCalls,
                        List<FleetSample> samples) {

    /** Queue waits (submission to start) of the jobs that started, in seconds. */
    record Waits(int count, long p50, long p95) {

        static Waits of(List<Long> waits) {
            if (waits.isEmpty()) {
                return new Waits(0, 0, 0);
            }
            List<Long> sorted = new ArrayList<>(waits);
            sorted.sort(null);
            return new Waits(sorted.size(), percentile(sorted, 0.50), percentile(sorted, 0.95));
        }

        private static long percentile(List<Long> sorted, double quantile) {
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(quantile * sorted.size()) - 1));
        }
    }

    /** A Muster job and when it first started, or -1. */
    record JobOutcome(SimulatedJob job, long firstStart) {
    }

    static SimulationResult of(PlacementPolicy policy, List<SimulatedJob> stream, List<JobOutcome> outcomes,
                               List<FleetSample> samples, long lastArrival, long placements, long misplacements, long refusals,
                               long preemptions, long waitingReports, long placementCalls, long placementCpuNanos, long quotaCalls,
                               long quotaCpuNanos) {
        Map<String, List<Long>> byTenant = new TreeMap<>();
        List<Long> all = new ArrayList<>();
        int started = 0;
        for (JobOutcome outcome : outcomes) {
            if (outcome.firstStart() >= 0) {
                started++;
                long wait = outcome.firstStart() - outcome.job().arrival();
                all.add(wait);
                byTenant.computeIfAbsent(outcome.job().tenant(), ignored -> new ArrayList<>()).add(wait);
            }
        }
        Map<String, Waits> waits = new TreeMap<>();
        byTenant.forEach((tenant, list) -> waits.put(tenant, Waits.of(list)));
        double allocation = samples.stream().filter(sample -> sample.time() <= lastArrival).mapToDouble(FleetSample::gpuAllocation)
                .average().orElse(0);
        return new SimulationResult(policy, outcomes.size(), started, outcomes.size() - started, allocation, placements, misplacements, refusals,
                preemptions, waitingReports, waits, Waits.of(all), placementCalls == 0 ? 0 : placementCpuNanos / 1000.0 / placementCalls, placementCalls,
                quotaCalls == 0 ? 0 : quotaCpuNanos / 1000.0 / quotaCalls, quotaCalls, List.copyOf(samples));
    }

    /** One line per policy: the figures the README table shows. */
    static String summaryCsv(List<SimulationResult> results) {
        StringBuilder text = new StringBuilder("policy,jobs,started,never_ran,mean_gpu_allocation,placements,misplacements,reservation_refusals,"
                + "preemptions,wait_p50_s,wait_p95_s,placement_cpu_us_per_decision,placement_decisions,quota_cpu_us_per_decision,quota_decisions,"
                + "waiting_reports\n");
        for (SimulationResult result : results) {
            text.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%.4f,%d,%d,%d,%d,%d,%d,%.1f,%d,%.1f,%d,%d%n", result.policy().label(), result.jobs(),
                    result.started(), result.neverRan(), result.meanAllocation(), result.placements(), result.misplacements(), result.refusals(),
                    result.preemptions(), result.allWaits().p50(), result.allWaits().p95(), result.placementMicrosPerCall(), result.placementCalls(),
                    result.quotaMicrosPerCall(), result.quotaCalls(), result.waitingReports()));
        }
        return text.toString();
    }

    /** Each tenant's queue wait under each policy. */
    static String tenantCsv(List<SimulationResult> results) {
        StringBuilder text = new StringBuilder("policy,tenant,jobs_started,wait_p50_s,wait_p95_s\n");
        for (SimulationResult result : results) {
            result.waitsByTenant().forEach((tenant, waits) -> text.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d%n", result.policy().label(),
                    tenant, waits.count(), waits.p50(), waits.p95())));
        }
        return text.toString();
    }

    /** The samples over time of every policy. */
    static String timeSeriesCsv(List<SimulationResult> results) {
        StringBuilder text = new StringBuilder("policy,time_s,gpu_allocation,jobs_waiting,jobs_running\n");
        for (SimulationResult result : results) {
            for (FleetSample sample : result.samples()) {
                text.append(String.format(Locale.ROOT, "%s,%d,%.4f,%d,%d%n", result.policy().label(), sample.time(), sample.gpuAllocation(),
                        sample.waiting(), sample.running()));
            }
        }
        return text.toString();
    }

    /** A table for the terminal. */
    static String table(List<SimulationResult> results) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%-22s %6s %7s %9s %9s %10s %9s %8s %9s %9s %12s %9s %10s%n", "policy", "jobs",
                "never", "GPU alloc", "placed", "misplaced", "refused", "preempt", "wait p50", "wait p95", "cpu/decision", "told/job", "quota cpu"));
        for (SimulationResult result : results) {
            text.append(String.format(Locale.ROOT, "%-22s %6d %7d %8.1f%% %9d %10d %9d %8d %8ds %8ds %10.0fµs %9.1f %8.0fµs%n", result.policy().label(),
                    result.jobs(), result.neverRan(), result.meanAllocation() * 100, result.placements(), result.misplacements(), result.refusals(),
                    result.preemptions(), result.allWaits().p50(), result.allWaits().p95(), result.placementMicrosPerCall(),
                    result.jobs() == 0 ? 0 : (double) result.waitingReports() / result.jobs(), result.quotaMicrosPerCall()));
        }
        return text.toString();
    }
}
