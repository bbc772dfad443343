package dev.muster.gangfit;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.label.LabelSelectors;
import dev.muster.model.resource.Quantities;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

/**
 * Whether a pod may run on a node, by the Kubernetes scheduler's filters: the node is Ready and not
 * cordoned, its labels satisfy the pod's nodeSelector and required node affinity, the pod tolerates every
 * {@code NoSchedule} and {@code NoExecute} taint, and the node's free capacity covers the pod's request.
 */
public final class NodeFit {

    private NodeFit() {
    }

    /** Why the pod cannot run on the node now, or empty when it can. */
    public static Optional<String> check(PodNeeds pod, NodeState node) {
        Optional<String> filtered = filter(pod, node);
        if (filtered.isPresent()) {
            return filtered;
        }
        for (String resource : pod.request().names()) {
            BigDecimal need = pod.request().amount(resource);
            BigDecimal free = node.free().amount(resource);
            if (need.signum() > 0 && need.compareTo(free) > 0) {
                return Optional.of("node " + node.name() + " has " + Quantities.format(resource, free) + " " + resource
                        + " free, the pod needs " + Quantities.format(resource, need));
            }
        }
        return Optional.empty();
    }

    /** Why the node would not take the pod whatever its free capacity (readiness, cordon, labels, taints), or empty. */
    public static Optional<String> filter(PodNeeds pod, NodeState node) {
        Refusal refusal = refusal(pod, node);
        return refusal == null ? Optional.empty() : Optional.of("node " + node.name() + " " + refusal.explain());
    }

    /**
     * Whether the pod may run on the node now: {@link #check} without saying why not, and without making a
     * message for every node a packing search passes over.
     */
    public static boolean fits(PodNeeds pod, NodeState node) {
        return refusal(pod, node) == null && hasRoom(pod, node);
    }

    /** Whether the node takes the pod whatever its free capacity (readiness, cordon, labels, taints). */
    static boolean accepts(PodNeeds pod, NodeState node) {
        return refusal(pod, node) == null;
    }

    private static boolean hasRoom(PodNeeds pod, NodeState node) {
        for (String resource : pod.request().names()) {
            BigDecimal need = pod.request().amount(resource);
            if (need.signum() > 0 && need.compareTo(node.free().amount(resource)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Why a node refuses a pod whatever its capacity; what is wrong is kept and worded only when asked. */
    private record Refusal(Kind kind, Object detail) {

        enum Kind { NOT_READY, CORDONED, NODE_SELECTOR, NODE_AFFINITY, TAINT }

        String explain() {
            return switch (kind) {
                case NOT_READY -> "is not Ready";
                case CORDONED -> "is cordoned";
                case NODE_SELECTOR -> {
                    Map.Entry<?, ?> required = (Map.Entry<?, ?>) detail;
                    yield "does not match nodeSelector " + required.getKey() + "=" + required.getValue();
                }
                case NODE_AFFINITY -> "does not match the pod's required node affinity";
                case TAINT -> "has taint " + describe((Taint) detail) + " that the pod does not tolerate";
            };
        }
    }

    private static Refusal refusal(PodNeeds pod, NodeState node) {
        if (!node.ready()) {
            return new Refusal(Refusal.Kind.NOT_READY, null);
        }
        if (node.unschedulable()) {
            return new Refusal(Refusal.Kind.CORDONED, null);
        }
        for (Map.Entry<String, String> required : pod.nodeSelector().entrySet()) {
            if (!required.getValue().equals(node.labels().get(required.getKey()))) {
                return new Refusal(Refusal.Kind.NODE_SELECTOR, required);
            }
        }
        if (pod.nodeAffinity() != null && !matchesAnyTerm(pod.nodeAffinity(), node.labels())) {
            return new Refusal(Refusal.Kind.NODE_AFFINITY, null);
        }
        for (Taint taint : node.taints()) {
            if (!"PreferNoSchedule".equals(taint.getEffect()) && !tolerated(taint, pod.tolerations())) {
                return new Refusal(Refusal.Kind.TAINT, taint);
            }
        }
        return null;
    }

    /** Kubernetes toleration matching: same effect (or any), and the key and value by the operator. */
    static boolean tolerated(Taint taint, List<Toleration> tolerations) {
        for (Toleration toleration : tolerations) {
            boolean effectMatches = toleration.getEffect() == null || toleration.getEffect().isEmpty()
                    || toleration.getEffect().equals(taint.getEffect());
            if (!effectMatches) {
                continue;
            }
            String key = toleration.getKey();
            if ("Exists".equals(toleration.getOperator())) {
                if (key == null || key.isEmpty() || key.equals(taint.getKey())) {
                    return true;
                }
            } else if (key != null && key.equals(taint.getKey())
                    && java.util.Objects.equals(emptyToNull(toleration.getValue()), emptyToNull(taint.getValue()))) {
                return true;
            }
        }
        return false;
    }

    /** Terms are alternatives; the requirements within a term must all hold. */
    private static boolean matchesAnyTerm(NodeSelector selector, Map<String, String> labels) {
        List<NodeSelectorTerm> terms = selector.getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            return false;
        }
        for (NodeSelectorTerm term : terms) {
            List<NodeSelectorRequirement> requirements = term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
            if (requirements.stream().allMatch(requirement -> holds(requirement, labels))) {
                return true;
            }
        }
        return false;
    }

    private static boolean holds(NodeSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
        return switch (requirement.getOperator()) {
            case "Gt" -> value != null && values.size() == 1 && compareIntegers(value, values.get(0)) > 0;
            case "Lt" -> value != null && values.size() == 1 && compareIntegers(value, values.get(0)) < 0;
            case "In", "NotIn", "Exists", "DoesNotExist" -> LabelSelectors.holds(requirement.getOperator(), value, values);
            default -> false;
        };
    }

    private static int compareIntegers(String label, String bound) {
        try {
            return Long.compare(Long.parseLong(label), Long.parseLong(bound));
        } catch (NumberFormatException e) {
            // Kubernetes treats a label that is not an integer as not matching Gt or Lt.
            return 0;
        }
    }

    private static String describe(Taint taint) {
        return taint.getKey() + (taint.getValue() == null || taint.getValue().isEmpty() ? "" : "=" + taint.getValue()) + ":" + taint.getEffect();
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
