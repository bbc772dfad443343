package dev.muster.model.event;

import java.util.Map;
import java.util.Objects;

/**
 * The queue service accepted a change of fleet configuration and now decides by it.
 *
 * @param object  the object the change was to
 * @param deleted whether the change was the object's deletion
 * @param queues  for the ElasticQuotaTree: the Kube Queue {@code Queue} of every quota node now in force, by node name
 *                (empty once the tree is deleted); empty for a policy
 */
public record ConfigAccepted(ConfigRef object, boolean deleted, Map<String, String> queues) implements ConfigOutcomeData {

    public ConfigAccepted {
        Objects.requireNonNull(object, "object");
        queues = queues == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(queues));
    }

    @Override
    public String summary() {
        return object + (deleted ? " deleted" : " accepted") + (queues.isEmpty() ? "" : ", queues " + String.join(", ", queues.values()));
    }
}
