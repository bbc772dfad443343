package dev.muster.model.scheduling;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * Packs all pods of a gang onto one cluster's nodes at once, or says why that is impossible.
 * <p>
 * Deterministic: pods go largest first (GPU, then CPU, then memory, then name), each to the node it fits
 * that would have the least of the pod's main resource left (best fit, ties by node name), so that large
 * free nodes stay whole for large pods. A gang whose total request exceeds the cluster's total free
 * capacity is rejected before any search. Greedy packing can miss a packing that exists; it never returns
 * one that does not fit.
 */
public final class GangPacker {

    private static final Comparator<PodNeeds> LARGEST_FIRST = Comparator
            .comparing((PodNeeds pod) -> pod.request().amount(ResourceNames.GPU)).reversed()
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.CPU), Comparator.reverseOrder())
            .thenComparing((PodNeeds pod) -> pod.request().amount(ResourceNames.MEMORY), Comparator.reverseOrder())
            .thenComparing(PodNeeds::name);

    private GangPacker() {
    }

    public static GangPlan pack(List<PodNeeds> pods, List<NodeState> nodes) {
        Optional<String> overTotal = exceedsTotalFree(pods, nodes);
        if (overTotal.isPresent()) {
            return new GangPlan.Unplaceable(overTotal.get());
        }
        Map<String, NodeState> state = new TreeMap<>();
        nodes.forEach(node -> state.put(node.name(), node));
        Map<String, String> placed = new LinkedHashMap<>();
        for (PodNeeds pod : pods.stream().sorted(LARGEST_FIRST).toList()) {
            String main = mainResource(pod);
            Optional<NodeState> best = state.values().stream()
                    .filter(node -> NodeFit.check(pod, node).isEmpty())
                    .min(Comparator.comparing((NodeState node) -> node.free().amount(main).subtract(pod.request().amount(main)))
                            .thenComparing(NodeState::name));
            if (best.isEmpty()) {
                return new GangPlan.Unplaceable(whyNoNode(pod, state.values()));
            }
            state.put(best.get().name(), best.get().minus(pod.request()));
            placed.put(pod.name(), best.get().name());
        }
        return new GangPlan.Placed(placed);
    }

    /**
     * The tight bound: what the gang needs in all against what every schedulable node has free in all, the
     * reason when it exceeds it; this alone is the seed's estimate of whether a cluster can take a job.
     */
    public static Optional<String> exceedsTotalFree(List<PodNeeds> pods, List<NodeState> nodes) {
        ResourceList need = pods.stream().map(PodNeeds::request).reduce(ResourceList.empty(), ResourceList::plus);
        ResourceList free = nodes.stream().filter(node -> node.ready() && !node.unschedulable())
                .map(NodeState::free).reduce(ResourceList.empty(), ResourceList::plus);
        for (String resource : need.names()) {
            if (need.amount(resource).compareTo(free.amount(resource)) > 0) {
                return Optional.of("the gang needs " + need.format(resource) + " " + resource + " in all, the cluster has "
                        + free.format(resource) + " free");
            }
        }
        return Optional.empty();
    }

    private static String mainResource(PodNeeds pod) {
        return pod.request().amount(ResourceNames.GPU).signum() > 0 ? ResourceNames.GPU : ResourceNames.CPU;
    }

    /**
     * The most useful reason: a resource no eligible node has enough of, with the largest amount free and
     * where; otherwise why the nodes are not eligible at all.
     */
    private static String whyNoNode(PodNeeds pod, java.util.Collection<NodeState> nodes) {
        List<NodeState> eligible = new ArrayList<>();
        Map<String, Integer> excluded = new TreeMap<>();
        for (NodeState node : nodes) {
            Optional<String> reason = NodeFit.filter(pod, node);
            if (reason.isEmpty()) {
                eligible.add(node);
            } else {
                excluded.merge(category(reason.get(), node), 1, Integer::sum);
            }
        }
        for (String resource : pod.request().names()) {
            BigDecimal need = pod.request().amount(resource);
            Optional<NodeState> largest = eligible.stream()
                    .max(Comparator.comparing((NodeState node) -> node.free().amount(resource)).thenComparing(NodeState::name, Comparator.reverseOrder()));
            if (need.signum() > 0 && (largest.isEmpty() || largest.get().free().amount(resource).compareTo(need) < 0)) {
                String where = largest.map(node -> " (largest free: " + Quantities.format(resource, node.free().amount(resource))
                        + " on node " + node.name() + ")").orElse("");
                return "no node has " + Quantities.format(resource, need) + " " + resource + " free for pod " + pod.name() + where
                        + describeExcluded(excluded);
            }
        }
        if (eligible.isEmpty()) {
            return "no node accepts pod " + pod.name() + describeExcluded(excluded);
        }
        return "no node has room for all of pod " + pod.name() + "'s request " + pod.request()
                + " at once: each lacks at least one resource" + describeExcluded(excluded);
    }

    private static String category(String reason, NodeState node) {
        String rest = reason.substring(("node " + node.name() + " ").length());
        if (rest.startsWith("has taint")) {
            return "untolerated taint";
        }
        if (rest.startsWith("does not match")) {
            return "node selector or affinity mismatch";
        }
        return rest;
    }

    private static String describeExcluded(Map<String, Integer> excluded) {
        if (excluded.isEmpty()) {
            return "";
        }
        return "; excluded: " + excluded.entrySet().stream().map(entry -> entry.getValue() + " " + entry.getKey())
                .collect(Collectors.joining(", "));
    }
}
