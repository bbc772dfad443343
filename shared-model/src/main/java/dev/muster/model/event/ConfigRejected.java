package dev.muster.model.event;

import java.util.List;
import java.util.Objects;

/**
 * The queue service refused a change of fleet configuration: a policy or tree that cannot be read, is invalid,
 * or cannot replace the one in force. What was in force before stays in force.
 *
 * @param object   the object the change was to
 * @param reasons  what is wrong, each with the field where it is
 * @param inForce  what stays in force instead, e.g. {@code ElasticQuotaTree kube-system/tree as accepted at 2026-12-01T10:00:00Z}, or
 *                 {@code nothing}
 */
public record ConfigRejected(ConfigRef object, List<String> reasons, String inForce) implements ConfigOutcomeData {

    public ConfigRejected {
        Objects.requireNonNull(object, "object");
        reasons = List.copyOf(reasons);
        Objects.requireNonNull(inForce, "inForce");
    }

    @Override
    public String summary() {
        return object + " refused: " + String.join("; ", reasons) + " (in force: " + inForce + ")";
    }
}
