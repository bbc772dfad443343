package dev.muster.bench.quality;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How fairly the tenants that want more GPUs share them, over a run: at each sample where two tenants or more have
 * jobs waiting, Jain's index of their GPUs over their weights, {@code (sum x)^2 / (n * sum x^2)}: 1 when each has GPUs in
 * proportion to its weight, {@code 1/n} when one has them all. Averaged over those samples.
 */
record Fairness(double meanJainIndex, int contendedSamples, Map<String, Double> meanGpuShareByTenant) {

    /**
     * @param weights each tenant's weight (here its guaranteed share of the fleet)
     * @param until   the last sample time counted (the last arrival: the drain after it says little of sharing)
     */
    static Fairness of(List<FleetSample> samples, Map<String, Double> weights, long until) {
        double sum = 0;
        int counted = 0;
        Map<String, Double> shareSums = new TreeMap<>();
        for (FleetSample sample : samples) {
            if (sample.time() > until || sample.contending().size() < 2) {
                continue;
            }
            double total = 0;
            double squares = 0;
            long gpus = sample.gpusByTenant().values().stream().mapToLong(Long::longValue).sum();
            for (String tenant : sample.contending()) {
                double x = sample.gpusByTenant().getOrDefault(tenant, 0L) / weights.get(tenant);
                total += x;
                squares += x * x;
            }
            if (squares == 0 || gpus == 0) {
                continue;
            }
            sum += total * total / (sample.contending().size() * squares);
            counted++;
            sample.gpusByTenant().forEach((tenant, used) -> shareSums.merge(tenant, (double) used / gpus, Double::sum));
        }
        int samplesCounted = counted;
        Map<String, Double> meanShares = new TreeMap<>();
        shareSums.forEach((tenant, shares) -> meanShares.put(tenant, shares / samplesCounted));
        return new Fairness(counted == 0 ? 1 : sum / counted, counted, meanShares);
    }
}
