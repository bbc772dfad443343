package dev.muster.model.event;

/**
 * A job submitted on the Kafka path now has its object on the fleet API, written by status sync to show it. From then
 * on that object's absence means someone deleted it, which deletes the job, as for a job applied with kubectl: the queue
 * looks for it even after a restart that missed the deletion.
 *
 * @param objectUid the fleet object's own UID (the job's events carry the submission's)
 */
public record JobShown(String objectUid) implements JobEventData {

    @Override
    public String summary() {
        return "shown on the fleet API";
    }
}
