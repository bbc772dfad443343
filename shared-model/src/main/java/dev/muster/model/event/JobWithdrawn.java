package dev.muster.model.event;

/**
 * An admitted job was deleted: its admission is withdrawn. Placement stops it whole on its member, and its quota is
 * released only once it has stopped ({@link JobEvicted}), so that its terminating pods and the next job's never share
 * the quota. Sent on the admissions topic, after the job's admission, so placement always reads them in that order.
 */
public record JobWithdrawn(String message) implements JobEventData {

    @Override
    public String summary() {
        return "admission withdrawn: " + message;
    }
}
