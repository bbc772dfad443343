package dev.muster.model.reservation;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * What the member's scheduler did with a reservation.
 *
 * @param phase         {@code Pending}, {@code Available}, {@code Succeeded} or {@code Failed}
 * @param conditions    {@code Scheduled} and {@code Ready}, with the reason when False
 * @param nodeName      the node holding the capacity, once scheduled
 * @param allocatable   what it holds in all
 * @param allocated     what its owner pods use of it
 * @param currentOwners the pods using it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationStatus(
        String phase,
        List<ReservationCondition> conditions,
        String nodeName,
        Map<String, Quantity> allocatable,
        Map<String, Quantity> allocated,
        List<ObjectReference> currentOwners,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public ReservationStatus {
        conditions = conditions == null ? List.of() : List.copyOf(conditions);
        allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
        allocated = allocated == null ? Map.of() : Map.copyOf(allocated);
        currentOwners = currentOwners == null ? List.of() : List.copyOf(currentOwners);
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }
}
