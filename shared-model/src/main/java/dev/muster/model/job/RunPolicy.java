package dev.muster.model.job;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/** Kubeflow's run policy of a job: pod cleanup, time limits, and the scheduling policy Muster reads. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunPolicy(
        String cleanPodPolicy,
        Integer ttlSecondsAfterFinished,
        Long activeDeadlineSeconds,
        Integer backoffLimit,
        SchedulingPolicy schedulingPolicy,
        Boolean suspend,
        String managedBy,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public RunPolicy {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
