package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.muster.model.validation.Violation;

/**
 * How siblings of the tree share the capacity above their {@code min}, read from two annotations of the
 * ElasticQuotaTree, so that the seed's manifests stay valid: {@code muster.dev/fair-sharing} ({@code DominantResource},
 * the default, or {@code Disabled} for priority then submission across queues, not {@code Off}, which YAML reads as false) and {@code muster.dev/fair-sharing-weights}
 * (e.g. {@code team-a=2, team-b=0.5}; a node not named weighs 1, and a weight of 0 borrows only what no sibling of
 * positive weight wants).
 *
 * <p>
 * {@code muster.dev/fair-sharing-preemption}: {@code Never} (the default) or {@code LessThanOrEqualToFinalShare}, with which a
 * borrower's job that does not fit may preempt borrowers of a sibling subtree, as long as its own subtree's share with the
 * job stays at most the sibling's without them.
 *
 * @param enabled  whether borrowing siblings are served lowest weighted dominant share first
 * @param weights  the weights named, by node
 * @param preempts whether a borrower below its fair share may preempt borrowers above theirs
 */
public record FairSharing(boolean enabled, Map<String, BigDecimal> weights, boolean preempts) {

    public static final String ANNOTATION = "muster.dev/fair-sharing";
    public static final String WEIGHTS_ANNOTATION = "muster.dev/fair-sharing-weights";
    public static final String PREEMPTION_ANNOTATION = "muster.dev/fair-sharing-preemption";
    /** Kueue's strategy of the name: a preemption only when the preemptor's share with its job is at most the victim's without its. */
    public static final String LESS_THAN_OR_EQUAL_TO_FINAL_SHARE = "LessThanOrEqualToFinalShare";
    static final String NEVER = "Never";
    public static final String DOMINANT_RESOURCE = "DominantResource";
    public static final String DISABLED = "Disabled";
    private static final BigDecimal MOST_WEIGHT = BigDecimal.valueOf(1000);

    public FairSharing {
        weights = Map.copyOf(weights);
    }

    /** The default: dominant-resource fair sharing, every node of weight 1. */
    public static FairSharing defaults() {
        return new FairSharing(true, Map.of(), false);
    }

    /** A node's weight: as named, else 1. */
    public BigDecimal weight(String node) {
        return weights.getOrDefault(node, BigDecimal.ONE);
    }

    /**
     * Reads the annotations, adding what is wrong with them to {@code violations}.
     *
     * @param nodes the names of the tree's nodes, which the weights must name
     */
    static FairSharing read(Map<String, String> annotations, Set<String> nodes, List<Violation> violations) {
        String mode = annotations.getOrDefault(ANNOTATION, DOMINANT_RESOURCE);
        if (!mode.equals(DOMINANT_RESOURCE) && !mode.equals(DISABLED)) {
            violations.add(new Violation("metadata.annotations." + ANNOTATION, "must be " + DOMINANT_RESOURCE + " or " + DISABLED + ", got \"" + mode + "\""));
        }
        Map<String, BigDecimal> weights = new LinkedHashMap<>();
        String where = "metadata.annotations." + WEIGHTS_ANNOTATION;
        String text = annotations.getOrDefault(WEIGHTS_ANNOTATION, "").trim();
        for (String entry : text.isEmpty() ? new String[0] : text.split(",")) {
            String[] parts = entry.split("=", -1);
            String node = parts[0].trim();
            if (parts.length != 2 || node.isEmpty()) {
                violations.add(new Violation(where, "each entry must be node=weight, e.g. team-a=2, got \"" + entry.trim() + "\""));
                continue;
            }
            if (!nodes.contains(node)) {
                violations.add(new Violation(where, "names no node of the tree: \"" + node + "\""));
                continue;
            }
            BigDecimal weight = weightOf(parts[1].trim());
            if (weight == null) {
                violations.add(new Violation(where, "the weight of " + node + " must be a number from 0 to " + MOST_WEIGHT + ", got \""
                        + parts[1].trim() + "\""));
            } else if (weights.put(node, weight) != null) {
                violations.add(new Violation(where, "names " + node + " twice"));
            }
        }
        String preemption = annotations.getOrDefault(PREEMPTION_ANNOTATION, NEVER);
        if (!preemption.equals(NEVER) && !preemption.equals(LESS_THAN_OR_EQUAL_TO_FINAL_SHARE)) {
            violations.add(new Violation("metadata.annotations." + PREEMPTION_ANNOTATION, "must be " + NEVER + " or "
                    + LESS_THAN_OR_EQUAL_TO_FINAL_SHARE + ", got \"" + preemption + "\""));
        } else if (preemption.equals(LESS_THAN_OR_EQUAL_TO_FINAL_SHARE) && mode.equals(DISABLED)) {
            violations.add(new Violation("metadata.annotations." + PREEMPTION_ANNOTATION, "needs fair sharing, which "
                    + ANNOTATION + " disables"));
        }
        return new FairSharing(!mode.equals(DISABLED), weights, preemption.equals(LESS_THAN_OR_EQUAL_TO_FINAL_SHARE));
    }

    private static BigDecimal weightOf(String text) {
        try {
            BigDecimal weight = new BigDecimal(text);
            return weight.signum() < 0 || weight.compareTo(MOST_WEIGHT) > 0 ? null : weight;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
