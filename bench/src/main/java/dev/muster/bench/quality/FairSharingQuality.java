package dev.muster.bench.quality;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Fair sharing on real traces: the same job stream, placed by node fit with reservation, with the quota core's
 * borrowers served by priority then submission (fair sharing disabled), by weighted dominant share (weights in
 * the ratio of the tenants' guarantees), and by weighted dominant share with fair-sharing preemption. Prints GPU allocation, waits, Jain's index of the contending tenants' GPUs
 * over their weights, and each tenant's waits and mean share of Muster's GPUs; writes {@code fairness.csv}.
 * <pre>
 * java -cp bench/target/bench.jar dev.muster.bench.quality.FairSharingQuality [--load 1.3] [the options of PlacementQuality]
 * </pre>
 */
public final class FairSharingQuality {

    /** One way the borrowers are served, as the table and the CSV name it. */
    private enum Order {
        PRIORITY("priority, submission", "priority", false, false),
        DOMINANT_SHARE("weighted dominant share", "drf", true, false),
        DOMINANT_SHARE_PREEMPTING("... and preemption", "drf+preemption", true, true);

        private final String label;
        private final String csv;
        private final boolean fair;
        private final boolean preempting;

        Order(String label, String csv, boolean fair, boolean preempting) {
            this.label = label;
            this.csv = csv;
            this.fair = fair;
            this.preempting = preempting;
        }
    }

    private FairSharingQuality() {
    }

    public static void main(String[] args) {
        PlacementQuality.Options options = PlacementQuality.Options.parse(args);
        PlacementQuality.Inputs inputs = PlacementQuality.Inputs.read(options);
        Map<String, Double> weights = new LinkedHashMap<>();
        inputs.tenants().forEach(tenant -> weights.put(tenant.name(), tenant.share()));

        StringBuilder csv = new StringBuilder("order,tenant,weight,mean_gpu_share,jobs_started,wait_p50_s,wait_p95_s\n");
        System.out.printf(Locale.ROOT, "%n%-24s %9s %9s %9s %8s %9s %10s %11s%n", "borrowers served by", "GPU alloc", "wait p50", "wait p95",
                "preempt", "Jain", "contended", "quota cpu");
        for (Order order : Order.values()) {
            long begin = System.nanoTime();
            SimulationResult result = new QualitySimulation(PlacementPolicy.NODE_FIT_RESERVATION, SimulationSettings.defaults()
                    .withFairSharing(order.fair, order.preempting), inputs.nodes(), inputs.tenants(), inputs.jobs()).run();
            Fairness fairness = Fairness.of(result.samples(), weights, inputs.lastArrival());
            System.out.printf(Locale.ROOT, "%-24s %8.1f%% %8ds %8ds %8d %9.3f %10d %9.0fµs   (simulated in %.0f s)%n", order.label, result.meanAllocation() * 100,
                    result.allWaits().p50(), result.allWaits().p95(), result.preemptions(), fairness.meanJainIndex(), fairness.contendedSamples(),
                    result.quotaMicrosPerCall(), (System.nanoTime() - begin) / 1e9);
            weights.forEach((tenant, weight) -> {
                SimulationResult.Waits waits = result.waitsByTenant().getOrDefault(tenant, new SimulationResult.Waits(0, 0, 0));
                csv.append(String.format(Locale.ROOT, "%s,%s,%.4f,%.4f,%d,%d,%d%n", order.csv, tenant, weight,
                        fairness.meanGpuShareByTenant().getOrDefault(tenant, 0.0), waits.count(), waits.p50(), waits.p95()));
            });
        }
        TraceInputs.write(inputs.out().resolve("fairness.csv"), csv.toString());
        System.out.println();
        System.out.println("Wrote " + inputs.out().resolve("fairness.csv") + " (each tenant's weight, mean share of the GPUs, waits, under each order)");
    }
}
