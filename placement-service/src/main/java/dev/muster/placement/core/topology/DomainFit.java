package dev.muster.placement.core.topology;

import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.muster.gangfit.Gang;
import dev.muster.gangfit.GangPacker;
import dev.muster.gangfit.GangPlan;
import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.PodNeeds;
import dev.muster.gangfit.Reason;
import dev.muster.model.job.TopologyDomain;
import dev.muster.model.resource.ResourceNames;
import dev.muster.model.job.TopologyRequest;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.ClusterFit.DoesNotFit;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.FitMode;

/**
 * Whether a gang that asks for a topology fits one member cluster, and in which domain. Required: the whole gang in
 * one domain of the level, or the cluster does not fit. Preferred: in one domain of the level, else of the next
 * broader level, and so on, else anywhere on the cluster; never refused for it. Among the domains of a level that hold
 * the gang, the best is the one it leaves fewest GPU nodes partly used in, then the one with the fewest GPUs free (so
 * the larger domains stay whole for larger gangs), then by name.
 */
public final class DomainFit {

    private DomainFit() {
    }

    /**
     * @param whole   the cluster's nodes
     * @param domains the cluster's domains of each level, by label value, fewest free GPUs first
     */
    public static ClusterFit.Result fit(String cluster, Gang needs, NodeIndex whole, Function<String, Map<String, NodeIndex>> domains,
                                        TopologyRequest request, TopologyLevels levels) {
        int gpuPods = 0;
        for (PodNeeds pod : needs.largestFirst()) {
            gpuPods += pod.request().amount(ResourceNames.GPU).signum() > 0 ? 1 : 0;
        }
        if (request.required()) {
            Map<String, NodeIndex> ofLevel = domains.apply(request.level());
            Fits best = best(cluster, needs, gpuPods, whole, request.level(), ofLevel, 0);
            return best != null ? best : new DoesNotFit(cluster, Reason.worded(() -> whyNot(needs, request.level(), ofLevel)));
        }
        List<String> tried = levels.fromNarrowToBroad(request.level());
        for (int spread = 0; spread < tried.size(); spread++) {
            Fits best = best(cluster, needs, gpuPods, whole, tried.get(spread), domains.apply(tried.get(spread)), spread);
            if (best != null) {
                return best;
            }
        }
        ClusterFit.Result anywhere = ClusterFit.fit(cluster, needs, whole, FitMode.NODE);
        return anywhere instanceof Fits fits ? fits.within(null, tried.size()) : anywhere;
    }

    /** The best domain of the level for the gang; the domains come fewest free GPUs first, so the first best is kept. */
    private static Fits best(String cluster, Gang needs, int gpuPods, NodeIndex whole, String level, Map<String, NodeIndex> domains, int spread) {
        Fits best = null;
        int bestPartial = 0;
        BigDecimal gpus = needs.total().amount(ResourceNames.GPU);
        for (Map.Entry<String, NodeIndex> domain : domains.entrySet()) {
            NodeIndex nodes = domain.getValue();
            if (best != null && bestPartial == 0) {
                // No later domain beats one left with no partly used GPU node: none has fewer GPUs free.
                break;
            }
            // Each GPU pod fills at most one partly used node: a domain that cannot end with fewer than the best is not packed.
            int fewestAfter = nodes.partialGpuNodes() - Math.min(gpuPods, nodes.partialGpuNodes());
            if (best != null && fewestAfter >= bestPartial || nodes.freeGpu().compareTo(gpus) < 0
                    || !(GangPacker.pack(needs, nodes) instanceof GangPlan.Placed placed)) {
                continue;
            }
            int partial = nodes.partialGpuNodesAfter(needs, placed.nodes());
            if (best == null || partial < bestPartial) {
                best = new Fits(cluster, FitMode.NODE, placed.nodes(), whole.partialGpuNodesAfter(needs, placed.nodes()), whole.freeGpu(),
                        new TopologyDomain(level, domain.getKey()), spread);
                bestPartial = partial;
            }
        }
        return best;
    }

    /**
     * The domain a plan keeps the gang within, as the job asks: one of its required level, or of the narrowest level of
     * its preference that all the plan's nodes share; empty when they share none (or a node is not known).
     */
    public static Optional<TopologyDomain> of(TopologyRequest request, TopologyLevels levels, Collection<String> planNodes,
                                              Function<String, NodeState> nodes) {
        for (String level : request.required() ? List.of(request.level()) : levels.fromNarrowToBroad(request.level())) {
            String shared = null;
            for (String name : planNodes) {
                NodeState node = nodes.apply(name);
                String value = node == null ? null : node.labels().get(level);
                if (value == null || shared != null && !shared.equals(value)) {
                    shared = null;
                    break;
                }
                shared = value;
            }
            if (shared != null) {
                return Optional.of(new TopologyDomain(level, shared));
            }
        }
        return Optional.empty();
    }

    /** Why no domain of the level holds the gang: none at all, or the one that comes closest, and how close. */
    private static String whyNot(Gang needs, String level, Map<String, NodeIndex> domains) {
        int pods = needs.largestFirst().size();
        if (domains.isEmpty()) {
            return "no node carries the topology label " + level + " the job requires";
        }
        String closest = null;
        int most = -1;
        for (Map.Entry<String, NodeIndex> domain : domains.entrySet()) {
            int placed = GangPacker.podsPlaced(needs, domain.getValue());
            if (placed > most) {
                closest = domain.getKey();
                most = placed;
            }
        }
        return "no " + level + " domain of its " + domains.size() + " holds all " + pods + " pods of the gang; the closest, " + closest
                + ", has room for its " + most + " largest";
    }
}
