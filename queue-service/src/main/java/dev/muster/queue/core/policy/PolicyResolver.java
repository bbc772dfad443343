package dev.muster.queue.core.policy;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.label.LabelSelectors;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.policy.PropagationPolicySpec.ResourceSelector;

/**
 * Finds the PropagationPolicy that governs a job, by the rules of the spec: a policy applies to jobs of
 * its own namespace whose apiVersion and kind a selector names (and its name, namespace and labels, where
 * the selector sets them). When several apply, the most specific selector wins (a name over a label
 * selector over kind alone), then the alphabetically first policy name.
 */
public final class PolicyResolver {

    private static final int BY_NAME = 3;
    private static final int BY_LABELS = 2;
    private static final int BY_KIND = 1;
    private static final int NO_MATCH = 0;

    private final Map<String, PropagationPolicy> policies = new TreeMap<>();

    /** Adds a policy, or replaces the one of the same namespace and name. */
    public void apply(PropagationPolicy policy) {
        policies.put(key(policy.getMetadata().getNamespace(), policy.getMetadata().getName()), policy);
    }

    /** The policy of this namespace and name, if applied. */
    public Optional<PropagationPolicy> policy(String namespace, String name) {
        return Optional.ofNullable(policies.get(key(namespace, name)));
    }

    public void delete(String namespace, String name) {
        policies.remove(key(namespace, name));
    }

    /** The policy that governs the job, if any does. */
    public Optional<PropagationPolicy> resolve(PyTorchJob job) {
        String namespace = job.getMetadata().getNamespace();
        record Match(PropagationPolicy policy, int specificity) {
        }
        return policies.values().stream()
                .filter(policy -> Objects.equals(policy.getMetadata().getNamespace(), namespace))
                .map(policy -> new Match(policy, specificity(policy, job)))
                .filter(match -> match.specificity() > NO_MATCH)
                .min(Comparator.comparingInt(Match::specificity).reversed()
                        .thenComparing(match -> match.policy().getMetadata().getName()))
                .map(Match::policy);
    }

    public List<PropagationPolicy> policies() {
        return List.copyOf(policies.values());
    }

    /** How specifically the policy's best selector names the job; {@link #NO_MATCH} when none does. */
    private static int specificity(PropagationPolicy policy, PyTorchJob job) {
        if (policy.getSpec() == null || policy.getSpec().resourceSelectors() == null) {
            return NO_MATCH;
        }
        int best = NO_MATCH;
        for (ResourceSelector selector : policy.getSpec().resourceSelectors()) {
            if (selects(selector, job)) {
                int specificity = selector.name() != null ? BY_NAME : selector.labelSelector() != null ? BY_LABELS : BY_KIND;
                best = Math.max(best, specificity);
            }
        }
        return best;
    }

    private static boolean selects(ResourceSelector selector, PyTorchJob job) {
        return Objects.equals(selector.apiVersion(), job.getApiVersion())
                && Objects.equals(selector.kind(), job.getKind())
                && (selector.name() == null || selector.name().equals(job.getMetadata().getName()))
                && (selector.namespace() == null || selector.namespace().equals(job.getMetadata().getNamespace()))
                && LabelSelectors.matches(selector.labelSelector(), job.getMetadata().getLabels());
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
