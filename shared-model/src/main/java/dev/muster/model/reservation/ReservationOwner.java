package dev.muster.model.reservation;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectReference;

/**
 * One way a pod can own a reservation; koordinator sets exactly one of the three.
 *
 * @param object        the pod itself, by namespace and name
 * @param controller    the pod's controlling owner, by kind, name and namespace (e.g. its PyTorchJob)
 * @param labelSelector the pod's labels
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationOwner(
        ObjectReference object,
        ObjectReference controller,
        LabelSelector labelSelector,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public ReservationOwner {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    /** The owner that is the pod with this namespace and name. */
    public static ReservationOwner pod(String namespace, String name) {
        ObjectReference reference = new ObjectReference();
        reference.setNamespace(namespace);
        reference.setName(name);
        return new ReservationOwner(reference, null, null, Map.of());
    }

    /** The owner that is any pod carrying all these labels. */
    public static ReservationOwner labels(Map<String, String> labels) {
        LabelSelector selector = new LabelSelector();
        selector.setMatchLabels(labels);
        return new ReservationOwner(null, null, selector, Map.of());
    }
}
