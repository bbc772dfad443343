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
 * @param enabled whether borrowing siblings are served lowest weighted dominant share first
 * @param weights the weights named, by node
 */
public record FairSharing(boolean enabled, Map<String, BigDecimal> weights) {

    public static final String ANNOTATION = "muster.dev/fair-sharing";
    public static final String WEIGHTS_ANNOTATION = "muster.dev/fair-sharing-weights";
    public static final String DOMINANT_RESOURCE = "DominantResource";
    public static final String DISABLED = "Disabled";
    private static final BigDecimal MOST_WEIGHT = BigDecimal.valueOf(1000);

    public FairSharing {
        weights = Map.copyOf(weights);
    }

    /** The default: dominant-resource fair sharing, every node of weight 1. */
    public static FairSharing defaults() {
        return new FairSharing(true, Map.of());
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
        return new FairSharing(!mode.equals(DISABLED), weights);
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
