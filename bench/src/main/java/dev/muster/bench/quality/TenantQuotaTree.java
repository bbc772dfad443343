package dev.muster.bench.quality;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import dev.muster.bench.quota.QuotaTrees;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.queue.core.quota.FairSharing;

/** The quota tree a {@link QualitySimulation} admits under: the tenants' shares of the fleet. */
final class TenantQuotaTree {

    private TenantQuotaTree() {
    }

    /**
     * Root: the whole fleet. One leaf per tenant: its share of the fleet guaranteed ({@code min}), the whole fleet to
     * borrow up to; under fair sharing, what they borrow is shared in the ratio of their guarantees (weights).
     */
    static ElasticQuotaTree of(List<TraceInputs.Tenant> tenants, long cpuMilli, long memoryMib, long gpus, SimulationSettings settings) {
        String fleet = "{cpu: %dm, memory: %dMi, nvidia.com/gpu: \"%d\", kube-queue/max-jobs: \"1000000000\"}".formatted(cpuMilli, memoryMib, gpus);
        StringBuilder yaml = new StringBuilder("""
                    name: root
                    min: %s
                    max: %s
                    children:
                """.formatted(fleet, fleet));
        for (TraceInputs.Tenant tenant : tenants) {
            yaml.append("    - name: ").append(tenant.name()).append('\n')
                    .append("      namespaces: [").append(tenant.name()).append("]\n")
                    // Rounded down, so the guarantees never add up to more than the fleet.
                    .append("      min: {cpu: ").append((long) Math.floor(cpuMilli * tenant.share())).append("m, memory: ")
                    .append((long) Math.floor(memoryMib * tenant.share())).append("Mi, nvidia.com/gpu: \"").append((long) Math.floor(gpus * tenant.share()))
                    .append("\"}\n")
                    .append("      max: ").append(fleet).append('\n');
        }
        String weights = tenants.stream().map(tenant -> tenant.name() + "=" + BigDecimal.valueOf(tenant.share() * 100)
                .setScale(2, java.math.RoundingMode.HALF_UP).max(new BigDecimal("0.01")).toPlainString()).collect(java.util.stream.Collectors.joining(", "));
        Map<String, String> annotations = new java.util.TreeMap<>(Map.of(FairSharing.ANNOTATION, settings.fairSharing() ? FairSharing.DOMINANT_RESOURCE
                : FairSharing.DISABLED, FairSharing.WEIGHTS_ANNOTATION, weights));
        if (settings.fairPreemption()) {
            annotations.put(FairSharing.PREEMPTION_ANNOTATION, FairSharing.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE);
        }
        return QuotaTrees.withRoot(annotations, yaml.toString());
    }
}
