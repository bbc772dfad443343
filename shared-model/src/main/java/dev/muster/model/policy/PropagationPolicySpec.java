package dev.muster.model.policy;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;

/**
 * The desired propagation of the jobs a policy selects.
 *
 * @param resourceSelectors which objects the policy applies to
 * @param suspension        {@code scheduling: true} holds matching jobs in the queue until quota admits them
 * @param propagateDeps     also copy the ConfigMaps and Secrets the pod templates reference
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PropagationPolicySpec(
        List<ResourceSelector> resourceSelectors,
        Placement placement,
        Suspension suspension,
        Failover failover,
        Boolean propagateDeps,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public PropagationPolicySpec {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    /** Whether matching jobs wait in the queue for quota ({@code suspension.scheduling: true}). */
    public boolean queued() {
        return suspension != null && Boolean.TRUE.equals(suspension.scheduling());
    }

    /** Selects objects by apiVersion and kind, and optionally by name, namespace or labels. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ResourceSelector(
            String apiVersion,
            String kind,
            String name,
            String namespace,
            LabelSelector labelSelector,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public ResourceSelector {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /** Where and how replicas are scheduled. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Placement(
            ReplicaScheduling replicaScheduling,
            ClusterAffinity clusterAffinity,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public Placement {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /**
     * @param replicaSchedulingType {@code Divided} (all replicas of a gang on one cluster) or {@code Duplicated}
     * @param customSchedulingType  {@code Gang} for all-or-nothing placement
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ReplicaScheduling(
            String replicaSchedulingType,
            String customSchedulingType,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public ReplicaScheduling {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /** The member clusters a job may go to: by name, by label, or both. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ClusterAffinity(
            List<String> clusterNames,
            LabelSelector labelSelector,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public ClusterAffinity {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /** Holds matching jobs back: {@code scheduling: true} queues them under the quota tree. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Suspension(
            Boolean scheduling,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public Suspension {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /** What to do when a placed job cannot run where it is. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Failover(
            ApplicationFailover application,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public Failover {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /**
     * @param purgeMode {@code Immediately}, {@code Graciously} or {@code Never}: when the old copy is deleted
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ApplicationFailover(
            DecisionConditions decisionConditions,
            String purgeMode,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public ApplicationFailover {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }

    /** @param tolerationSeconds how long a job may be unhealthy on its member before it is moved */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record DecisionConditions(
            Integer tolerationSeconds,
            @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

        public DecisionConditions {
            additionalProperties = UnknownFields.copyOf(additionalProperties);
        }
    }
}
