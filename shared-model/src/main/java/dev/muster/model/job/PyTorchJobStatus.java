package dev.muster.model.job;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;

/**
 * The observed state of a PyTorchJob, as the training operator writes it on a member and Muster mirrors it on the fleet.
 * Times are RFC 3339 strings, as in every Kubernetes object.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PyTorchJobStatus(
        List<JobCondition> conditions,
        Map<String, ReplicaStatus> replicaStatuses,
        String startTime,
        String completionTime,
        String lastReconcileTime,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public PyTorchJobStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        replicaStatuses = replicaStatuses == null ? Map.of() : Map.copyOf(replicaStatuses);
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    /**
     * The job's state as {@code kubectl get pytorchjob} shows it: the type of its latest condition that is True
     * ({@code Created}, {@code Running}, {@code Restarting}, {@code Succeeded}, {@code Failed}); empty before the
     * first one.
     */
    @JsonIgnore
    public Optional<JobCondition> currentCondition() {
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if ("True".equals(conditions.get(i).status())) {
                return Optional.of(conditions.get(i));
            }
        }
        return Optional.empty();
    }

    /** Whether the job ended: Succeeded or Failed. */
    @JsonIgnore
    public boolean isFinished() {
        return currentCondition().map(condition -> "Succeeded".equals(condition.type()) || "Failed".equals(condition.type())).orElse(false);
    }
}
