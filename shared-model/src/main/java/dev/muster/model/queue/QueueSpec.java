package dev.muster.model.queue;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/**
 * How a queue orders its jobs.
 *
 * @param queuePolicy {@code FIFO} or {@code Priority}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueueSpec(
        String queuePolicy,
        Integer priority,
        String priorityClassName,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public QueueSpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
