package dev.muster.placement.core.gang;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

import dev.muster.model.job.GangPod;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.scheduling.Gang;
import dev.muster.model.policy.PropagationPolicySpec.ClusterAffinity;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.ClusterFit.DoesNotFit;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.inventory.ClusterInventory;

/**
 * Ranks the member clusters a job's whole gang fits on now. Score, best first:
 * <ol>
 * <li>least fragmentation left behind: fewest GPU nodes partly used once the gang is on them;</li>
 * <li>most free GPUs;</li>
 * <li>cluster name, ascending.</li>
 * </ol>
 * So a job goes where it fills nodes up rather than where it breaks whole nodes, and among equals to the
 * emptiest cluster. Every cluster that is not ranked gets its reason.
 */
public final class GangPlanner {

    /** Best first. */
    public static final Comparator<Fits> SCORE = Comparator.comparingInt(Fits::partialGpuNodes)
            .thenComparing(Fits::freeGpu, Comparator.reverseOrder())
            .thenComparing(Fits::cluster);

    private GangPlanner() {
    }

    /** Where the job can go, best first, and why each other cluster cannot take it. */
    public record Options(List<Fits> ranked, Map<String, String> reasons) {

        public Options {
            ranked = List.copyOf(ranked);
            reasons = java.util.Collections.unmodifiableMap(new TreeMap<>(reasons));
        }

        public Optional<Fits> best() {
            return ranked.isEmpty() ? Optional.empty() : Optional.of(ranked.get(0));
        }
    }

    /**
     * @param excludedUntil clusters this job must avoid until the given time (recent failovers)
     * @param modes         the fit mode of each cluster
     */
    public static Options plan(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                               Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes) {
        Gang needs = ClusterFit.needs(GangPod.of(job));
        ClusterAffinity affinity = policy == null || policy.getSpec() == null || policy.getSpec().placement() == null ? null
                : policy.getSpec().placement().clusterAffinity();
        List<Fits> ranked = new ArrayList<>();
        Map<String, String> reasons = new TreeMap<>();
        for (ClusterInventory cluster : clusters) {
            Optional<String> notCandidate = Candidates.whyNot(cluster, affinity, excludedUntil, now);
            if (notCandidate.isPresent()) {
                reasons.put(cluster.cluster(), notCandidate.get());
                continue;
            }
            ClusterFit.Result result = ClusterFit.fit(cluster.cluster(), needs, cluster.index(), modes.apply(cluster.cluster()));
            if (result instanceof Fits fits) {
                ranked.add(fits);
            } else {
                reasons.put(cluster.cluster(), ((DoesNotFit) result).reason());
            }
        }
        ranked.sort(SCORE);
        return new Options(ranked, reasons);
    }
}
