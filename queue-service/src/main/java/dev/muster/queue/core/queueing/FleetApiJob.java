package dev.muster.queue.core.queueing;

import dev.muster.model.event.JobRef;

/**
 * A job with an object on the fleet API, held until the job is deleted: one applied there, or one submitted on Kafka
 * whose object status sync wrote to show it.
 *
 * @param objectUid the UID of the object status sync first showed a Kafka job with; null for a job applied on the fleet
 *                  API (its events carry its object's UID) and for records written before it was kept. Another object of
 *                  the job found later was written after the first was deleted: the job was deleted.
 */
public record FleetApiJob(String namespace, String name, String uid, String objectUid) {

    static FleetApiJob of(JobRef job, String objectUid) {
        return new FleetApiJob(job.namespace(), job.name(), job.uid(), objectUid);
    }

    public JobRef ref() {
        return new JobRef(namespace, name, uid);
    }
}
