package dev.muster.model.job;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.kubernetes.api.model.LabelSelector;

/** How many pods of one replica type are active, succeeded and failed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplicaStatus(
        Integer active,
        Integer succeeded,
        Integer failed,
        String selector,
        LabelSelector labelSelector) {
}
