package dev.muster.model.queue;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/** A queue's observed state; Muster keeps whatever Kube Queue tools wrote there. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueueStatus(@JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public QueueStatus {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
