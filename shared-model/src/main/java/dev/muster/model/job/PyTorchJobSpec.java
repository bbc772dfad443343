package dev.muster.model.job;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.muster.model.json.UnknownFields;

/**
 * The desired state of a PyTorchJob.
 *
 * @param pytorchReplicaSpecs the replica types ({@code Master}, {@code Worker}) and their pods
 * @param runPolicy           cleanup, scheduling (queue, priority class, min-available) and limits
 * @param cleanPodPolicy      the older top-level form of {@code runPolicy.cleanPodPolicy}, still used by the seed
 * @param additionalProperties fields Muster does not model, kept as they came
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"cleanPodPolicy", "pytorchReplicaSpecs", "runPolicy"})
public record PyTorchJobSpec(
        Map<String, ReplicaSpec> pytorchReplicaSpecs,
        RunPolicy runPolicy,
        String cleanPodPolicy,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public PyTorchJobSpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    public PyTorchJobSpec(Map<String, ReplicaSpec> pytorchReplicaSpecs) {
        this(pytorchReplicaSpecs, null, null, Map.of());
    }

    /** The PriorityClass the job names ({@code runPolicy.schedulingPolicy.priorityClass}), if it names one. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public java.util.Optional<String> priorityClassName() {
        return runPolicy == null || runPolicy.schedulingPolicy() == null ? java.util.Optional.empty()
                : java.util.Optional.ofNullable(runPolicy.schedulingPolicy().priorityClass());
    }
}
