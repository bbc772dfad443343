package dev.muster.model.label;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.muster.model.validation.Violations;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

/**
 * Kubernetes label selector semantics: every {@code matchLabels} pair and every {@code matchExpressions}
 * requirement must hold. An empty selector matches everything; a null one too, as an absent selector does.
 */
public final class LabelSelectors {

    private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectors() {
    }

    /** Whether the labels satisfy the selector; call only with a selector {@link #validate} accepted. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        Map<String, String> actual = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> required : selector.getMatchLabels().entrySet()) {
                if (!required.getValue().equals(actual.get(required.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
                if (!holds(requirement, actual)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean holds(LabelSelectorRequirement requirement, Map<String, String> labels) {
        return holds(requirement.getOperator(), labels.get(requirement.getKey()), requirement.getValues());
    }

    /**
     * Whether a label's value (null when the label is absent) satisfies a set-based requirement: {@code In},
     * {@code NotIn}, {@code Exists} or {@code DoesNotExist}, as label selectors and node selector terms share them.
     */
    public static boolean holds(String operator, String value, List<String> values) {
        List<String> allowed = values == null ? List.of() : values;
        return switch (operator) {
            case "In" -> value != null && allowed.contains(value);
            case "NotIn" -> value == null || !allowed.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> throw new IllegalArgumentException("unknown label selector operator " + operator);
        };
    }

    /** Reports what Kubernetes would reject in a selector: unknown operators, and values that do not suit the operator. */
    public static void validate(String path, LabelSelector selector, Violations violations) {
        if (selector == null || selector.getMatchExpressions() == null) {
            return;
        }
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions();
        for (int i = 0; i < expressions.size(); i++) {
            LabelSelectorRequirement requirement = expressions.get(i);
            String at = path + ".matchExpressions[" + i + "]";
            if (requirement.getKey() == null || requirement.getKey().isBlank()) {
                violations.add(at + ".key", "is required");
            }
            String operator = requirement.getOperator();
            if (!OPERATORS.contains(operator)) {
                violations.add(at + ".operator", "must be one of In, NotIn, Exists, DoesNotExist, got \""
                        + operator + "\"");
                continue;
            }
            boolean hasValues = requirement.getValues() != null && !requirement.getValues().isEmpty();
            if ((operator.equals("In") || operator.equals("NotIn")) && !hasValues) {
                violations.add(at + ".values", "must be non-empty for " + operator);
            } else if ((operator.equals("Exists") || operator.equals("DoesNotExist")) && hasValues) {
                violations.add(at + ".values", "must be empty for " + operator);
            }
        }
    }
}
