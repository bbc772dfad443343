package dev.muster.model.reservation;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.muster.model.json.UnknownFields;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * What a reservation holds and for whom.
 *
 * @param template     the pod the capacity is for: its requests, node selector, tolerations, and optionally a
 *                     {@code nodeName} that pins the reservation to one node
 * @param owners       which pods may use it; a pod matching any one owner does
 * @param ttl          how long an unused reservation lives, a Go duration such as {@code 10m}; koordinator's default is 24h
 * @param expires      an absolute expiry (RFC 3339), instead of {@code ttl}
 * @param allocateOnce whether the first owner pod uses it up (the default, true)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationSpec(
        PodTemplateSpec template,
        List<ReservationOwner> owners,
        String ttl,
        String expires,
        Boolean allocateOnce,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public ReservationSpec {
        owners = owners == null ? List.of() : List.copyOf(owners);
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    public ReservationSpec(PodTemplateSpec template, List<ReservationOwner> owners, String ttl) {
        this(template, owners, ttl, null, null, Map.of());
    }

    /** Whether the first owner pod uses the reservation up. */
    public boolean isAllocateOnce() {
        return allocateOnce == null || allocateOnce;
    }
}
