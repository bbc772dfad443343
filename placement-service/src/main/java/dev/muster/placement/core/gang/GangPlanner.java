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

import dev.muster.gangfit.Gang;
import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.Reason;
import dev.muster.gangfit.Workload;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.policy.PropagationPolicySpec.ClusterAffinity;
import dev.muster.model.resource.ResourceNames;
import dev.muster.placement.core.fit.ClusterFit.DoesNotFit;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.DomainFit;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * Ranks the member clusters a job's whole gang fits on now. Score, best first:
 * <ol>
 * <li>closest to the topology the job asks for (see {@link DomainFit}): a cluster with a rack that holds the gang
 * beats one where it would spread over racks, however many GPUs that one has free;</li>
 * <li>least fragmentation left behind: the least rise of the expected fragmentation for the workload seen (see
 * {@link Workload}), when placement scores by it, then the fewest GPU nodes partly used once the gang is on them;</li>
 * <li>most free GPUs;</li>
 * <li>cluster name, ascending.</li>
 * </ol>
 * So a job goes where it fills nodes up rather than where it breaks whole nodes, and among equals to the
 * emptiest cluster. Every cluster that is not ranked gets its reason.
 */
public final class GangPlanner {

    /** Best first. */
    public static final Comparator<Fits> SCORE = Comparator.comparingInt(Fits::spread).thenComparingDouble(Fits::fragmentation)
            .thenComparingInt(Fits::partialGpuNodes)
            .thenComparing(Fits::freeGpu, Comparator.reverseOrder())
            .thenComparing(Fits::cluster);

    private GangPlanner() {
    }

    /**
     * Where the job can go, best first, and why each other cluster cannot take it.
     *
     * @param whyNot each cluster not ranked, and why: worded when read, so that a retry nobody reads costs
     *               only the search
     */
    public record Options(List<Fits> ranked, Map<String, Reason> whyNot) {

        public Options {
            ranked = List.copyOf(ranked);
            whyNot = java.util.Collections.unmodifiableMap(new TreeMap<>(whyNot));
        }

        /** Each cluster not ranked, and why, worded now. */
        public Map<String, String> reasons() {
            Map<String, String> reasons = new TreeMap<>();
            whyNot.forEach((cluster, reason) -> reasons.put(cluster, reason.text()));
            return reasons;
        }

        public Optional<Fits> best() {
            return ranked.isEmpty() ? Optional.empty() : Optional.of(ranked.get(0));
        }
    }

    /**
     * Every cluster the job can go to, ranked, and why each other one cannot take it.
     *
     * @param excludedUntil clusters this job must avoid until the given time (recent failovers)
     * @param modes         the fit mode of each cluster
     */
    public static Options plan(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                               Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes) {
        return plan(job, policy, clusters, excludedUntil, now, modes, TopologyLevels.DEFAULT);
    }

    /** As {@link #plan}, with the fleet's topology levels. */
    public static Options plan(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                               Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes, TopologyLevels levels) {
        return plan(job, policy, clusters, excludedUntil, now, modes, levels, Workload.NONE);
    }

    /** As {@link #plan}, with the fleet's topology levels, each pod placed where it fragments the workload's GPUs least. */
    public static Options plan(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                               Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes, TopologyLevels levels,
                               Workload workload) {
        Gang needs = ClusterFit.needs(GangPod.of(job));
        Optional<TopologyRequest> topology = TopologyRequest.of(job);
        ClusterAffinity affinity = affinity(policy);
        List<Fits> ranked = new ArrayList<>();
        Map<String, Reason> reasons = new TreeMap<>();
        for (ClusterInventory cluster : clusters) {
            Optional<String> notCandidate = Candidates.whyNot(cluster, affinity, excludedUntil, now);
            if (notCandidate.isPresent()) {
                reasons.put(cluster.cluster(), Reason.of(notCandidate.get()));
                continue;
            }
            fit(cluster, needs, topology, levels, workload, modes, ranked, reasons);
        }
        ranked.sort(SCORE);
        return new Options(ranked, reasons);
    }

    /**
     * The best cluster for the job, the same that {@link #plan} ranks first, found without packing the gang
     * onto clusters that cannot beat one already found: the answer's {@code ranked} holds that cluster only.
     * When no cluster fits, every cluster was tried and the answer has each one's reason, as {@link #plan}'s.
     * <p>
     * The bound: a pod changes at most one node from partly used to full, so a cluster is left with at least
     * its partly used GPU nodes now less the gang's GPU pods; its free GPUs and name are known before packing.
     * Candidates are tried in the order of that bound, so the first whose bound is worse than the best score
     * found ends the search.
     */
    public static Options choose(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                                 Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes) {
        return choose(job, policy, clusters, excludedUntil, now, modes, TopologyLevels.DEFAULT);
    }

    /** As {@link #choose}, with the fleet's topology levels. */
    public static Options choose(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                                 Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes, TopologyLevels levels) {
        return choose(job, policy, clusters, excludedUntil, now, modes, levels, Workload.NONE);
    }

    /**
     * As {@link #choose}, with the fleet's topology levels, each pod placed where it fragments the workload's GPUs least.
     * A gang lowers a cluster's fragmentation by at most its GPUs, and that bound is the same for every cluster, so with a
     * workload every candidate is packed.
     */
    public static Options choose(PyTorchJob job, PropagationPolicy policy, Collection<ClusterInventory> clusters,
                                 Map<String, Instant> excludedUntil, Instant now, Function<String, FitMode> modes, TopologyLevels levels,
                                 Workload workload) {
        Gang needs = ClusterFit.needs(GangPod.of(job));
        Optional<TopologyRequest> topology = TopologyRequest.of(job);
        ClusterAffinity affinity = affinity(policy);
        int gpuPods = (int) needs.largestFirst().stream().filter(pod -> pod.request().amount(ResourceNames.GPU).signum() > 0).count();
        double gangGpus = needs.total().amount(ResourceNames.GPU).doubleValue();
        Map<String, Reason> reasons = new TreeMap<>();
        List<Bounded> candidates = new ArrayList<>();
        for (ClusterInventory cluster : clusters) {
            Optional<String> notCandidate = Candidates.whyNot(cluster, affinity, excludedUntil, now);
            if (notCandidate.isPresent()) {
                reasons.put(cluster.cluster(), Reason.of(notCandidate.get()));
            } else {
                NodeIndex index = cluster.index();
                int partial = index.partialGpuNodes();
                candidates.add(new Bounded(cluster, new Fits(cluster.cluster(), FitMode.NODE, Map.of(),
                        partial - Math.min(gpuPods, partial), index.freeGpu(), null, 0, workload.isEmpty() ? 0 : -gangGpus)));
            }
        }
        candidates.sort(Comparator.comparing(Bounded::bound, SCORE));
        List<Fits> fitting = new ArrayList<>(1);
        for (Bounded candidate : candidates) {
            if (!fitting.isEmpty() && SCORE.compare(candidate.bound(), fitting.get(0)) > 0) {
                break;
            }
            fit(candidate.cluster(), needs, topology, levels, workload, modes, fitting, reasons);
            fitting.sort(SCORE);
            if (fitting.size() > 1) {
                fitting.subList(1, fitting.size()).clear();
            }
        }
        return new Options(fitting, reasons);
    }

    /** A candidate cluster with the best score it could reach for the gang, known before packing. */
    private record Bounded(ClusterInventory cluster, Fits bound) {
    }

    private static void fit(ClusterInventory cluster, Gang needs, Optional<TopologyRequest> topology, TopologyLevels levels, Workload workload,
                            Function<String, FitMode> modes, List<Fits> fitting, Map<String, Reason> reasons) {
        FitMode mode = modes.apply(cluster.cluster());
        ClusterFit.Result result;
        if (topology.isEmpty()) {
            result = ClusterFit.fit(cluster.cluster(), needs, cluster.index(), mode, workload);
        } else if (mode == FitMode.NODE) {
            result = DomainFit.fit(cluster.cluster(), needs, cluster.index(), cluster::domains, topology.get(), levels);
        } else if (topology.get().required()) {
            // The estimate sees no nodes, so it can promise no domain.
            result = new DoesNotFit(cluster.cluster(), Reason.of("the job requires topology level " + topology.get().level()
                    + ", which placement cannot honor on a cluster it fits by estimate (fit mode " + mode + ")"));
        } else {
            // Preferred on an estimate: no domain can be promised, so it ranks as spread over the whole cluster.
            ClusterFit.Result estimated = ClusterFit.fit(cluster.cluster(), needs, cluster.index(), mode);
            result = estimated instanceof Fits fits ? fits.within(null, levels.fromNarrowToBroad(topology.get().level()).size()) : estimated;
        }
        if (result instanceof Fits fits) {
            fitting.add(fits);
        } else {
            reasons.put(cluster.cluster(), ((DoesNotFit) result).reason());
        }
    }

    static ClusterAffinity affinity(PropagationPolicy policy) {
        return policy == null || policy.getSpec() == null || policy.getSpec().placement() == null ? null
                : policy.getSpec().placement().clusterAffinity();
    }
}
