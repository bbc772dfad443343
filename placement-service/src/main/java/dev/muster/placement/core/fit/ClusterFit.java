package dev.muster.placement.core.fit;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.job.GangPod;
import dev.muster.model.resource.ResourceNames;
import dev.muster.model.scheduling.GangPacker;
import dev.muster.model.scheduling.GangPlan;
import dev.muster.model.scheduling.NodeState;
import dev.muster.model.scheduling.PodNeeds;

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
     */
    public record Fits(String cluster, FitMode mode, Map<String, String> plan, int partialGpuNodes, BigDecimal freeGpu) implements Result {

        public Fits {
            plan = Map.copyOf(plan);
        }
    }

    /** The gang does not fit; {@code reason} says why, e.g. {@code no node has 8 nvidia.com/gpu free ...}. */
    public record DoesNotFit(String cluster, String reason) implements Result {
    }

    /** Decides for one cluster, given its nodes' free capacity now. */
    public static Result fit(String cluster, List<GangPod> gang, List<NodeState> nodes, FitMode mode) {
        List<PodNeeds> needs = gang.stream().map(pod -> PodNeeds.of(pod.name(), pod.spec())).toList();
        BigDecimal freeGpu = nodes.stream().filter(node -> node.ready() && !node.unschedulable())
                .map(node -> node.free().amount(ResourceNames.GPU)).reduce(BigDecimal.ZERO, BigDecimal::add);
        if (mode == FitMode.SUM_ESTIMATE) {
            Optional<String> shortfall = GangPacker.exceedsTotalFree(needs, nodes);
            return shortfall.<Result>map(reason -> new DoesNotFit(cluster, reason))
                    .orElseGet(() -> new Fits(cluster, mode, Map.of(), partialGpuNodes(nodes, Map.of(), needs), freeGpu));
        }
        GangPlan plan = GangPacker.pack(needs, nodes);
        if (plan instanceof GangPlan.Placed placed) {
            return new Fits(cluster, mode, placed.nodes(), partialGpuNodes(nodes, placed.nodes(), needs), freeGpu);
        }
        return new DoesNotFit(cluster, ((GangPlan.Unplaceable) plan).reason());
    }

    /** GPU nodes that would be partly used once the plan's pods are on them. */
    private static int partialGpuNodes(List<NodeState> nodes, Map<String, String> plan, List<PodNeeds> needs) {
        Map<String, BigDecimal> taken = new HashMap<>();
        for (PodNeeds pod : needs) {
            String node = plan.get(pod.name());
            if (node != null) {
                taken.merge(node, pod.request().amount(ResourceNames.GPU), BigDecimal::add);
            }
        }
        int partial = 0;
        for (NodeState node : nodes) {
            BigDecimal allocatable = node.allocatable().amount(ResourceNames.GPU);
            BigDecimal free = node.free().amount(ResourceNames.GPU).subtract(taken.getOrDefault(node.name(), BigDecimal.ZERO));
            if (allocatable.signum() > 0 && free.signum() > 0 && free.compareTo(allocatable) < 0) {
                partial++;
            }
        }
        return partial;
    }
}
