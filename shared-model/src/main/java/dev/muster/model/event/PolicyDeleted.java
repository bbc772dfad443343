package dev.muster.model.event;

import dev.muster.model.policy.PropagationPolicy;

/** A PropagationPolicy was deleted. */
public record PolicyDeleted(String namespace, String name) implements ConfigEventData {
    public PolicyDeleted {
        if (namespace == null || name == null) {
            throw new IllegalArgumentException("namespace and name are required");
        }
    }


    @Override
    public String subject() {
        return namespace + "/" + name;
    }

    @Override
    public String key() {
        return PropagationPolicy.KIND + "/" + subject();
    }

    @Override
    public String summary() {
        return "PropagationPolicy " + subject() + " deleted";
    }
}
