package dev.muster.model.event;

import java.util.Objects;
import java.util.Optional;

/**
 * Which fleet configuration object an event is about: a PropagationPolicy or the ElasticQuotaTree.
 *
 * @param kind      {@code PropagationPolicy} or {@code ElasticQuotaTree}
 * @param namespace its namespace
 * @param name      its name
 */
public record ConfigRef(String kind, String namespace, String name) {

    public ConfigRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** The object a configuration event is about; empty for events about no object (a tick). */
    public static Optional<ConfigRef> of(EventType type, String subject) {
        String kind = switch (type) {
            case POLICY_APPLIED, POLICY_DELETED -> dev.muster.model.policy.PropagationPolicy.KIND;
            case QUOTA_TREE_APPLIED, QUOTA_TREE_DELETED -> dev.muster.model.quota.ElasticQuotaTree.KIND;
            default -> null;
        };
        int slash = subject == null ? -1 : subject.indexOf('/');
        if (kind == null || slash <= 0 || slash == subject.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(new ConfigRef(kind, subject.substring(0, slash), subject.substring(slash + 1)));
    }

    /** {@code namespace/name}. */
    public String subject() {
        return namespace + "/" + name;
    }

    /** {@code Kind/namespace/name}, the Kafka key of every event about the object. */
    public String key() {
        return kind + "/" + subject();
    }

    @Override
    public String toString() {
        return kind + " " + subject();
    }
}
