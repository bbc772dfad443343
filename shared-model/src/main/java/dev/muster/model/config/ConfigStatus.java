package dev.muster.model.config;

import java.util.List;

import io.fabric8.kubernetes.api.model.Condition;

/**
 * The status Muster writes on a PropagationPolicy or the ElasticQuotaTree: whether the queue service took its last
 * change ({@code Accepted} True), or refused it and why ({@code Accepted} False, with what stays in force).
 */
public record ConfigStatus(List<Condition> conditions) {

    /** The condition type Muster sets. */
    public static final String ACCEPTED = "Accepted";

    public ConfigStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
    }
}
