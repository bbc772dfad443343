package dev.muster.model.event;

import dev.muster.model.policy.PropagationPolicy;

/** A PropagationPolicy was created or updated. */
public record PolicyApplied(PropagationPolicy policy) implements ConfigEventData {
    public PolicyApplied {
        if (policy == null || policy.getMetadata() == null || policy.getMetadata().getName() == null
                || policy.getMetadata().getNamespace() == null) {
            throw new IllegalArgumentException("policy with metadata.name and metadata.namespace is required");
        }
    }


    @Override
    public String subject() {
        return policy.getMetadata().getNamespace() + "/" + policy.getMetadata().getName();
    }

    @Override
    public String key() {
        return PropagationPolicy.KIND + "/" + subject();
    }

    @Override
    public String summary() {
        return "PropagationPolicy " + subject() + " applied";
    }
}
