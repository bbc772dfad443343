package dev.muster.model.policy;

import java.util.List;
import java.util.Set;

import dev.muster.model.label.LabelSelectors;
import dev.muster.model.policy.PropagationPolicySpec.ApplicationFailover;
import dev.muster.model.policy.PropagationPolicySpec.ReplicaScheduling;
import dev.muster.model.policy.PropagationPolicySpec.ResourceSelector;
import dev.muster.model.validation.Violation;
import dev.muster.model.validation.Violations;

/** Checks a PropagationPolicy before Muster uses it to place jobs. */
public final class PropagationPolicyValidator {

    private static final Set<String> REPLICA_SCHEDULING_TYPES = Set.of("Divided", "Duplicated");
    private static final String GANG = "Gang";
    private static final Set<String> PURGE_MODES = Set.of("Immediately", "Graciously", "Never");

    private PropagationPolicyValidator() {
    }

    /** Every violation found; empty when the policy is valid. */
    public static List<Violation> validate(PropagationPolicy policy) {
        Violations violations = new Violations();
        if (policy.getMetadata() == null || policy.getMetadata().getName() == null || policy.getMetadata().getName().isEmpty()) {
            violations.add("metadata.name", "is required");
        }
        PropagationPolicySpec spec = policy.getSpec();
        if (spec == null) {
            violations.add("spec", "is required");
            return violations.list();
        }
        List<ResourceSelector> selectors = spec.resourceSelectors();
        if (selectors == null || selectors.isEmpty()) {
            violations.add("spec.resourceSelectors", "must have at least one selector");
        } else {
            for (int i = 0; i < selectors.size(); i++) {
                String path = "spec.resourceSelectors[" + i + "]";
                ResourceSelector selector = selectors.get(i);
                if (selector.apiVersion() == null || selector.apiVersion().isBlank()) {
                    violations.add(path + ".apiVersion", "is required");
                }
                if (selector.kind() == null || selector.kind().isBlank()) {
                    violations.add(path + ".kind", "is required");
                }
                LabelSelectors.validate(path + ".labelSelector", selector.labelSelector(), violations);
            }
        }
        if (spec.placement() != null && spec.placement().replicaScheduling() != null) {
            validateReplicaScheduling(spec.placement().replicaScheduling(), violations);
        }
        if (spec.placement() != null && spec.placement().clusterAffinity() != null) {
            LabelSelectors.validate("spec.placement.clusterAffinity.labelSelector", spec.placement().clusterAffinity().labelSelector(), violations);
        }
        if (spec.failover() != null && spec.failover().application() != null) {
            validateFailover(spec.failover().application(), violations);
        }
        return violations.list();
    }

    private static void validateReplicaScheduling(ReplicaScheduling scheduling, Violations violations) {
        String path = "spec.placement.replicaScheduling";
        String type = scheduling.replicaSchedulingType();
        if (type != null && !REPLICA_SCHEDULING_TYPES.contains(type)) {
            violations.add(path + ".replicaSchedulingType", "must be one of Divided, Duplicated, got \"" + type + "\"");
        }
        String custom = scheduling.customSchedulingType();
        if (custom != null && !GANG.equals(custom)) {
            violations.add(path + ".customSchedulingType", "must be Gang, got \"" + custom + "\"");
        }
    }

    private static void validateFailover(ApplicationFailover failover, Violations violations) {
        String path = "spec.failover.application";
        if (failover.purgeMode() != null && !PURGE_MODES.contains(failover.purgeMode())) {
            violations.add(path + ".purgeMode", "must be one of Immediately, Graciously, Never, got \"" + failover.purgeMode() + "\"");
        }
        if (failover.decisionConditions() != null) {
            Integer toleration = failover.decisionConditions().tolerationSeconds();
            if (toleration != null && toleration < 0) {
                violations.add(path + ".decisionConditions.tolerationSeconds", "must be >= 0, got " + toleration);
            }
        }
    }
}
