package dev.muster.queue.core.queueing;

import dev.muster.model.event.JobRef;

/**
 * A job with an object on the fleet API, held until the job is deleted: one applied there, or one submitted on Kafka
 * whose object status sync wrote to show it.
 *
 * @param objectUid the UID of the job's object: the job's own for one applied there, the one status sync first showed it
 *                  with for one submitted on Kafka; null for records written before it was kept. Another object of the job
 *                  found later (of its name, or of its events' UID) was made after the job's was deleted: the job was.
 */
public record FleetApiJob(String namespace, String name, String uid, String objectUid) {

    static FleetApiJob of(JobRef job, String objectUid) {
        return new FleetApiJob(job.namespace(), job.name(), job.uid(), objectUid);
    }

    public JobRef ref() {
        return new JobRef(namespace, name, uid);
    }
}
