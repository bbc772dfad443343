package dev.muster.model.job;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * One replica type of a PyTorchJob: how many pods, how each restarts, and the pod they run.
 *
 * @param replicas      number of pods; Kubeflow's default is 1 when absent
 * @param restartPolicy {@code Always}, {@code OnFailure}, {@code Never} or {@code ExitCode}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReplicaSpec(
        Integer replicas,
        String restartPolicy,
        PodTemplateSpec template,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    /** Kubeflow's default when {@code replicas} is absent. */
    public static final int DEFAULT_REPLICAS = 1;

    public ReplicaSpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    public ReplicaSpec(Integer replicas, String restartPolicy, PodTemplateSpec template) {
        this(replicas, restartPolicy, template, Map.of());
    }

    /** The replica count with Kubeflow's default applied. */
    public int replicaCount() {
        return replicas == null ? DEFAULT_REPLICAS : replicas;
    }
}
