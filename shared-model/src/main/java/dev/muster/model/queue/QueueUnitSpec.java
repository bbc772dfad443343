package dev.muster.model.queue;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * @param consumerRef the job this unit stands for
 * @param queue       the queue it waits in
 * @param resource    the job's total demand
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueueUnitSpec(
        ObjectReference consumerRef,
        String queue,
        Map<String, Quantity> resource,
        Integer priority,
        String priorityClassName,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public QueueUnitSpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
