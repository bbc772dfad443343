package dev.muster.model.event;

/**
 * Placement chose a cluster and started to reserve or create the job there.
 *
 * @param reservation the reservation's name on the member, or null when the member has no reservation support
 */
public record PlacementAttempted(String cluster, String reservation) implements JobEventData {

    @Override
    public String summary() {
        return "placing on " + cluster + (reservation == null ? "" : " with reservation " + reservation);
    }
}
