package dev.muster.queue.core.queueing;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MalformedEventException;

/**
 * Jobs applied on the fleet API under a name the queue still holds for a job whose object there is another: the fleet
 * API holds one object of a name, so that job's object was deleted, and its deletion (read later, or sent only once the
 * check for missed deletions finds it) frees the name. Each waits for it instead of being refused, and is submitted then.
 * <p>
 * A submission read after a later one took the name (the two come on different partitions) waits too, and its own
 * deletion, which always follows it, drops it. Kept in the state topic ({@code applied-again/<uid of the holder>}).
 */
final class AppliedAgain {

    private static final System.Logger LOG = System.getLogger(AppliedAgain.class.getName());
    static final String PREFIX = "applied-again/";

    /** Each waiting submission, by the UID of the job holding its name. */
    private final Map<String, JobEvent> byHolder = new LinkedHashMap<>();
    private final Map<String, byte[]> pendingState;

    AppliedAgain(Map<String, byte[]> pendingState) {
        this.pendingState = pendingState;
    }

    void waitFor(JobRef holder, JobEvent submission) {
        JobEvent earlier = byHolder.put(holder.uid(), submission);
        if (earlier != null && !earlier.job().uid().equals(submission.job().uid())) {
            LOG.log(System.Logger.Level.INFO, "job " + earlier.job() + " no longer waits for the name: " + submission.job() + " was applied since");
        }
        pendingState.put(PREFIX + holder.uid(), EventSerde.serialize(submission));
        LOG.log(System.Logger.Level.INFO, "job " + submission.job() + " (uid " + submission.job().uid() + ") waits for the deletion of "
                + holder + " (uid " + holder.uid() + "), whose object on the fleet API it replaced");
    }

    /**
     * The job was deleted: the submission that waited for its name, if one did, to submit now. A job that itself waited is
     * dropped.
     */
    Optional<JobEvent> deleted(String uid) {
        byHolder.entrySet().removeIf(waiting -> {
            boolean itself = waiting.getValue().job().uid().equals(uid);
            if (itself) {
                pendingState.put(PREFIX + waiting.getKey(), null);
            }
            return itself;
        });
        JobEvent waiting = byHolder.remove(uid);
        if (waiting != null) {
            pendingState.put(PREFIX + uid, null);
        }
        return Optional.ofNullable(waiting);
    }

    boolean restore(QueueState.Entry record) {
        if (!record.key().startsWith(PREFIX)) {
            return false;
        }
        try {
            byHolder.put(record.key().substring(PREFIX.length()), (JobEvent) EventSerde.deserialize(record.value()));
        } catch (MalformedEventException | ClassCastException e) {
            LOG.log(System.Logger.Level.WARNING, "state record " + record.key() + " cannot be read and is skipped: " + e.getMessage());
        }
        return true;
    }
}
