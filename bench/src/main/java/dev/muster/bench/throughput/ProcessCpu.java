package dev.muster.bench.throughput;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CPU time each process of the stack spends, read from the operating system around a load phase: how many
 * milliseconds of CPU one bound job costs each of them, which says what a bigger machine would reach.
 */
final class ProcessCpu {

    private final Map<String, Long> pids;

    /** @param pids the processes to measure, by the name to print */
    ProcessCpu(Map<String, Long> pids) {
        this.pids = Map.copyOf(pids);
    }

    /** Each process's CPU time so far (user and system); a process gone or unreadable reads as zero. */
    Map<String, Duration> snapshot() {
        Map<String, Duration> times = new LinkedHashMap<>();
        pids.forEach((name, pid) -> times.put(name, ProcessHandle.of(pid).flatMap(handle -> handle.info().totalCpuDuration())
                .orElse(Duration.ZERO)));
        return times;
    }

    /** Milliseconds of CPU per job of each process between two snapshots, over {@code jobs} jobs. */
    static Map<String, Double> perJob(Map<String, Duration> before, Map<String, Duration> after, int jobs) {
        Map<String, Double> perJob = new LinkedHashMap<>();
        after.forEach((name, time) -> perJob.put(name, jobs == 0 ? Double.NaN
                : time.minus(before.getOrDefault(name, Duration.ZERO)).toNanos() / 1e6 / jobs));
        return perJob;
    }
}
