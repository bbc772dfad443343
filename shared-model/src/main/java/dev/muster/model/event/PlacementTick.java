package dev.muster.model.event;

/**
 * Asks the placement service to act on what only time changes (a reservation not confirmed in time, a retry whose
 * backoff is over, a stopping job to check on). Sent by the placement service to itself on
 * {@link Topics#PLACEMENT_RESULTS}, so that those decisions, like every other, are committed with what they were
 * decided on.
 */
public record PlacementTick() implements ConfigEventData {

    public static final String SUBJECT = "muster/placement-tick";

    @Override
    public String subject() {
        return SUBJECT;
    }

    @Override
    public String key() {
        return "PlacementTick/" + SUBJECT;
    }

    @Override
    public String summary() {
        return "placement tick";
    }
}
