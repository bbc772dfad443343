package dev.muster.model.job;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * Kubeflow's gang-scheduling hints on a job.
 *
 * @param minAvailable  pods that must start together; Muster's gang is always every replica
 * @param queue         the queue name a user asks for
 * @param priorityClass the PriorityClass whose value orders the job in its queue
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SchedulingPolicy(
        Integer minAvailable,
        String queue,
        Map<String, Quantity> minResources,
        String priorityClass,
        Integer scheduleTimeoutSeconds,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public SchedulingPolicy {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
