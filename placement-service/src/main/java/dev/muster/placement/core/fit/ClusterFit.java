package dev.muster.placement.core.fit;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.gangfit.Gang;
import dev.muster.gangfit.GangPacker;
import dev.muster.gangfit.GangPlan;
import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;
import dev.muster.gangfit.PodNeeds;
import dev.muster.gangfit.Reason;
import dev.muster.gangfit.Workload;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.TopologyDomain;

/** Whether a job's whole gang fits one member cluster now, and how well. */
public final class ClusterFit {

    private ClusterFit() {
    }

    /** The answer for one cluster. */
    public sealed interface Result {
        String cluster();
    }

    /**
     * The gang fits.
     *
     * @param plan            the node of each pod (empty under {@link FitMode#SUM_ESTIMATE}, which picks none)
     * @param partialGpuNodes GPU nodes left partly used after the placement: the fragmentation it leaves behind
     * @param freeGpu         the cluster's free GPUs before the placement
     * @param domain          the topology domain all of the plan's pods are in, when the job asks
     *                        for one and one holds it; else null
     * @param spread          how far the plan is from the job's topology: 0 within a domain of the level it asks for (or
     *                        when it asks for none), one more for each broader level, the most over the whole cluster
     * @param fragmentation   how much the plan raises the cluster's expected fragmentation for the workload seen, in
     *                        GPUs (see {@link Workload}); 0 when placed without one
     */
    public record Fits(String cluster, FitMode mode, Map<String, String> plan, int partialGpuNodes, BigDecimal freeGpu, TopologyDomain domain,
                       int spread, double fragmentation) implements Result {

        public Fits {
            plan = Map.copyOf(plan);
        }

        /** A fit of a job that asks for no topology. */
        public Fits(String cluster, FitMode mode, Map<String, String> plan, int partialGpuNodes, BigDecimal freeGpu) {
            this(cluster, mode, plan, partialGpuNodes, freeGpu, null, 0, 0);
        }

        /** A fit in a topology domain, placed without a workload. */
        public Fits(String cluster, FitMode mode, Map<String, String> plan, int partialGpuNodes, BigDecimal freeGpu, TopologyDomain domain,
                    int spread) {
            this(cluster, mode, plan, partialGpuNodes, freeGpu, domain, spread, 0);
        }

        /** The same fit, in a topology domain. */
        public Fits within(TopologyDomain domain, int spread) {
            return new Fits(cluster, mode, plan, partialGpuNodes, freeGpu, domain, spread, fragmentation);
        }
    }

    /** The gang does not fit; {@code reason} says why, e.g. {@code no node has 8 nvidia.com/gpu free ...}, worded when read. */
    public record DoesNotFit(String cluster, Reason reason) implements Result {
    }

    /** Decides for one cluster, given its nodes' free capacity now. */
    public static Result fit(String cluster, List<GangPod> gang, List<NodeState> nodes, FitMode mode) {
        return fit(cluster, needs(gang), NodeIndex.of(nodes), mode);
    }

    /** What the gang's pods need from nodes: worked out once per decision, for every cluster. */
    public static Gang needs(List<GangPod> gang) {
        return Gang.of(gang.stream().map(pod -> PodNeeds.of(pod.name(), pod.spec())).toList());
    }

    /** Decides for one cluster, given its indexed nodes. */
    public static Result fit(String cluster, Gang needs, NodeIndex nodes, FitMode mode) {
        return fit(cluster, needs, nodes, mode, Workload.NONE);
    }

    /** Decides for one cluster, given its indexed nodes, placing pods where they fragment the workload's GPUs least. */
    public static Result fit(String cluster, Gang needs, NodeIndex nodes, FitMode mode, Workload workload) {
        if (mode == FitMode.SUM_ESTIMATE) {
            Optional<String> shortfall = GangPacker.exceedsTotalFree(needs, nodes.totalFree());
            return shortfall.<Result>map(reason -> new DoesNotFit(cluster, Reason.of(reason)))
                    .orElseGet(() -> new Fits(cluster, mode, Map.of(), nodes.partialGpuNodes(), nodes.freeGpu()));
        }
        GangPlan plan = GangPacker.pack(needs, nodes, workload);
        if (plan instanceof GangPlan.Placed placed) {
            return new Fits(cluster, mode, placed.nodes(), nodes.partialGpuNodesAfter(needs, placed.nodes()), nodes.freeGpu(), null, 0,
                    placed.fragmentationIncrease());
        }
        return new DoesNotFit(cluster, ((GangPlan.Unplaceable) plan).reason());
    }
}
