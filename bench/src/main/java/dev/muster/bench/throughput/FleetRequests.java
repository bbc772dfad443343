package dev.muster.bench.throughput;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.muster.simulator.cluster.AccessLog;

/**
 * The requests a job costs the fleet API server, by who made them and what they were ({@code status-sync
 * patch pytorchjobs/status}), counted on the server itself: what a platform team's API server pays per job.
 */
final class FleetRequests {

    private FleetRequests() {
    }

    /** The fleet requests made between two counts, per job, by client, verb and resource; watches not counted (one per informer, not per job). */
    static Map<String, Double> perJob(Map<AccessLog.Access, Long> before, Map<AccessLog.Access, Long> after, int jobs) {
        Map<String, Double> perJob = new TreeMap<>();
        after.forEach((access, count) -> {
            long made = count - before.getOrDefault(access, 0L);
            if (made > 0 && access.server().equals("fleet") && !access.verb().equals("watch")) {
                perJob.merge(access.client() + " " + access.verb() + " " + access.roleResource(), made / (double) Math.max(jobs, 1), Double::sum);
            }
        });
        return perJob;
    }

    static String table(List<Double> offeredRates, List<Map<String, Double>> perJob) {
        if (perJob.isEmpty()) {
            return "";
        }
        TreeSet<String> kinds = new TreeSet<>();
        perJob.forEach(step -> kinds.addAll(step.keySet()));
        StringBuilder text = new StringBuilder("Fleet API requests per bound job, by client, verb and resource (watches not counted):\n\n| request |");
        offeredRates.forEach(rate -> text.append(String.format(Locale.ROOT, " %.0f/s |", rate)));
        text.append("\n|---|").append("---|".repeat(offeredRates.size())).append('\n');
        for (String kind : kinds) {
            text.append("| ").append(kind).append(" |");
            perJob.forEach(step -> text.append(String.format(Locale.ROOT, " %.2f |", step.getOrDefault(kind, 0.0))));
            text.append('\n');
        }
        text.append("| all |");
        perJob.forEach(step -> text.append(String.format(Locale.ROOT, " %.2f |", step.values().stream().mapToDouble(Double::doubleValue).sum())));
        return text.append('\n').toString();
    }

    /** The Events the fleet shows, by reason: per job, and how many repeats each object's series counted. */
    static String eventsByReason(List<io.fabric8.kubernetes.api.model.Event> events) {
        Map<String, long[]> byReason = new TreeMap<>();
        java.util.Set<String> jobs = new java.util.HashSet<>();
        for (io.fabric8.kubernetes.api.model.Event event : events) {
            jobs.add(event.getInvolvedObject().getName());
            long[] counts = byReason.computeIfAbsent(event.getReason(), reason -> new long[2]);
            counts[0]++;
            counts[1] += event.getCount() == null ? 1 : event.getCount();
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "Events on the fleet's jobs (%d jobs), by reason: objects per job, occurrences per job%n",
                jobs.size()));
        byReason.forEach((reason, counts) -> text.append(String.format(Locale.ROOT, "  %-24s %5.2f %5.2f%n", reason,
                counts[0] / (double) Math.max(jobs.size(), 1), counts[1] / (double) Math.max(jobs.size(), 1))));
        return text.toString();
    }
}
