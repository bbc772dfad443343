package dev.muster.model.event;

/**
 * Placement chose a cluster and started to reserve or create the job there.
 *
 * @param reservation the reservation's name on the member, or null when the member has no reservation support
 * @param domain      the topology domain the whole gang goes in ({@code label=value}), when the job asks for one; else null
 */
public record PlacementAttempted(String cluster, String reservation, String domain) implements JobEventData {

    /** An attempt of a job that asks for no topology. */
    public PlacementAttempted(String cluster, String reservation) {
        this(cluster, reservation, null);
    }

    @Override
    public String summary() {
        return "placing on " + cluster + (domain == null ? "" : " in " + domain) + (reservation == null ? "" : " with reservation " + reservation);
    }
}
