package dev.muster.model.queue;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/**
 * Where a queued job stands.
 *
 * @param phase {@code Enqueued}, {@code Dequeued}, {@code Running}, {@code Succeed}, {@code Failed} or {@code TimeoutBackoff}
 * @param estimatedStartTime while {@code Enqueued}, when Muster expects the job to start (RFC 3339), were nothing new to
 *                           arrive; absent when it has no estimate
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueueUnitStatus(
        String phase,
        String message,
        String lastUpdateTime,
        String estimatedStartTime,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public QueueUnitStatus {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
