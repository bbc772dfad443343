package dev.muster.model.event;

/**
 * The job ended on its member; its quota and reservations are released.
 *
 * @param outcome {@code Succeeded} or {@code Failed}
 */
public record JobFinished(String cluster, String outcome, String message) implements JobEventData {

    @Override
    public String summary() {
        return outcome + " on " + cluster + (message == null ? "" : ": " + message);
    }
}
