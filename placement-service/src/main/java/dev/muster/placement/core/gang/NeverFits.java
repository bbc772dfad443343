package dev.muster.placement.core.gang;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.muster.gangfit.Gang;
import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.policy.PropagationPolicySpec.ClusterAffinity;
import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.fit.ClusterFit.DoesNotFit;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.FitMode;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.topology.DomainFit;
import dev.muster.placement.core.topology.TopologyDomains;
import dev.muster.placement.core.topology.TopologyLevels;

/**
 * Tells a gang that waits for room from one no member could ever hold: one that does not fit any member the job may
 * go to even with nothing else running there (say 64 GPUs in one job when the largest member has 48). Such a job is
 * rejected instead of waiting for good and holding its quota. Judged only when every member the job may go to answers
 * and has reported its nodes: a member away could have more than placement knows.
 */
final class NeverFits {

    private NeverFits() {
    }

    /** Why no member could ever hold the job, naming the resource and the largest member; empty when one could, or it cannot be told. */
    static Optional<String> reason(PyTorchJob job, ClusterAffinity affinity, Collection<ClusterInventory> clusters) {
        List<ClusterInventory> possible = new ArrayList<>();
        for (ClusterInventory cluster : clusters) {
            if (!Candidates.matchesAffinity(cluster, affinity)) {
                continue;
            }
            if (cluster.member().isEmpty() || !cluster.member().get().reachable() || !cluster.hasNodes()) {
                return Optional.empty();
            }
            possible.add(cluster);
        }
        if (possible.isEmpty()) {
            return Optional.empty();
        }
        Gang needs = ClusterFit.needs(GangPod.of(job));
        Optional<TopologyRequest> required = TopologyRequest.of(job).filter(TopologyRequest::required);
        Map<String, String> reasons = new TreeMap<>();
        for (ClusterInventory cluster : possible) {
            NodeIndex emptyIndex = cluster.emptyIndex();
            ClusterFit.Result empty = required.isPresent()
                    ? DomainFit.fit(cluster.cluster(), needs, emptyIndex, level -> TopologyDomains.group(emptyIndex, level, Map.of()),
                            required.get(), TopologyLevels.DEFAULT)
                    : ClusterFit.fit(cluster.cluster(), needs, emptyIndex, FitMode.NODE);
            if (!(empty instanceof DoesNotFit doesNotFit)) {
                return Optional.empty();
            }
            reasons.put(cluster.cluster(), doesNotFit.reason().text());
        }
        return Optional.of("no member cluster could hold the whole gang even with nothing else running: " + largest(job, possible)
                .orElse(String.join("; ", reasons.entrySet().stream().map(entry -> entry.getKey() + ": " + entry.getValue()).toList())));
    }

    /** The resource the gang needs more of than the largest member has in all, with that member named. */
    private static Optional<String> largest(PyTorchJob job, List<ClusterInventory> clusters) {
        ResourceList demand = JobDemand.of(job).total();
        for (String resource : demand.names()) {
            BigDecimal need = demand.amount(resource);
            ClusterInventory largest = null;
            BigDecimal most = BigDecimal.ZERO;
            for (ClusterInventory cluster : clusters) {
                BigDecimal total = cluster.emptyIndex().nodes().stream().map(NodeState::allocatable)
                        .map(allocatable -> allocatable.amount(resource)).reduce(BigDecimal.ZERO, BigDecimal::add);
                if (largest == null || total.compareTo(most) > 0) {
                    largest = cluster;
                    most = total;
                }
            }
            if (largest != null && need.compareTo(most) > 0) {
                return Optional.of("the job needs " + Quantities.format(resource, need) + " " + resource + " in all; the largest member, "
                        + largest.cluster() + ", has " + Quantities.format(resource, most));
            }
        }
        return Optional.empty();
    }
}
