package dev.muster.model.reservation;

import com.fasterxml.jackson.annotation.JsonInclude;

/** One condition of a reservation: {@code Scheduled} or {@code Ready}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ReservationCondition(String type, String status, String reason, String message, String lastProbeTime,
                                   String lastTransitionTime) {
}
