package dev.muster.statussync.core.fleet;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceList;

/** A write status sync makes to the fleet API server, decided from the job and configuration events it consumes. */
public sealed interface FleetWrite {

    /** What the write is kept in order with: writes of the same key land in the order they were decided. */
    String orderKey();

    /** The key of every write to one fleet job and its objects: the job's {@code namespace/name}. */
    sealed interface OfJob extends FleetWrite {

        JobRef job();

        @Override
        default String orderKey() {
            return job().subject();
        }
    }

    /**
     * The fleet object of a job submitted on the Kafka path, written once so that {@code kubectl} shows the job
     * like any other; it carries the UID of the job's events.
     */
    record CreateJob(JobRef job, PyTorchJob manifest) implements OfJob {
    }

    /**
     * A Kubernetes Event on the fleet job. Its name is derived from {@code eventId}, so recording the same
     * decision twice (after a restart, say) finds it already there.
     *
     * @param type      {@code Normal} or {@code Warning}
     * @param component who decided, as {@code kubectl describe} shows it under {@code From}
     */
    record RecordEvent(JobRef job, String eventId, String type, String reason, String message, String component, Instant time)
            implements OfJob {
    }

    /**
     * The fleet job's status while it does not run on any member: a single condition of this type
     * ({@code Queuing}, or {@code Failed} for a rejected job), so that {@code kubectl get pytorchjob} shows it.
     */
    record SetCondition(JobRef job, String type, String reason, String message, Instant time) implements OfJob {

        /**
         * Whether this condition may replace the status the fleet job shows. A job that succeeded stays so: the queue's
         * or placement's word on an admission its end overtook (read late, or again after a restart) must not show it
         * waiting. Nor does a condition decided before the one shown replace it: the queue's word and the member's come
         * on different topics, and after a restart whose commits were lost a job's queueing may be read again before its
         * binding, over the Running its member has shown since. A failed status may be replaced, as a job whose copy
         * failed moves on while failovers are left.
         */
        public boolean mayReplace(PyTorchJobStatus current) {
            return current == null || current.currentCondition()
                    .filter(shown -> "Succeeded".equals(shown.type()) || decidedBefore(shown)).isEmpty();
        }

        /** Whether this condition was decided before the shown one began; not when either time is unknown or unreadable. */
        private boolean decidedBefore(JobCondition shown) {
            if (time == null || shown.lastTransitionTime() == null) {
                return false;
            }
            try {
                return time.isBefore(Instant.parse(shown.lastTransitionTime()));
            } catch (java.time.format.DateTimeParseException e) {
                return false;
            }
        }
    }

    /**
     * The job's Kube Queue {@code QueueUnit}, created or updated.
     *
     * @param priority          the job's priority as its queue orders it, or null when not known
     * @param priorityClassName the PriorityClass the job names, or null
     * @param phase             {@code Enqueued}, {@code Dequeued}, {@code Running}, {@code Succeed}, {@code Failed} or {@code TimeoutBackoff}
     * @param estimatedStart    while {@code Enqueued}, when the queue expects the job to start; else null
     */
    record PutQueueUnit(JobRef job, String queue, ResourceList demand, Integer priority, String priorityClassName, String phase,
                        String message, Instant time, Instant estimatedStart) implements OfJob {
    }

    /**
     * The fleet object Muster wrote for a job submitted on the Kafka path goes when its owner deletes the job there; an
     * object of that name that stands for another job is left alone.
     */
    record DeleteKafkaJob(JobRef job) implements OfJob {
    }

    /**
     * No request: the job's fleet object as the queue's ingress read it when the job was applied, so that the job's
     * first status write need not read it again (a later version there is read then).
     */
    record ObjectSeen(JobRef job, PyTorchJob object) implements OfJob {
    }

    /** The job's {@code QueueUnit} is deleted with the job. */
    record DeleteQueueUnit(JobRef job) implements OfJob {
    }

    /**
     * What the queue service made of the last change to a policy or the tree, on that object: its {@code Accepted}
     * condition and a Kubernetes Event (named after {@code eventId}, so a repeat finds it there).
     *
     * @param accepted whether the change is in force
     * @param reason   {@code Accepted} or {@code Refused}
     */
    record ConfigOutcome(ConfigRef object, String eventId, boolean accepted, String reason, String message, Instant time) implements FleetWrite {

        @Override
        public String orderKey() {
            return object.key();
        }
    }

    /**
     * The Kube Queue {@code Queue} objects should be exactly these: one per quota node, by queue name, with the
     * node each stands for; Muster's queues not named are deleted.
     */
    record PutQueues(Map<String, String> nodeByQueue, List<String> order) implements FleetWrite {

        public PutQueues {
            nodeByQueue = Map.copyOf(nodeByQueue);
            order = List.copyOf(order);
        }

        @Override
        public String orderKey() {
            return "queues";
        }
    }
}
