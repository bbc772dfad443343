package dev.muster.queue.core.queueing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobRef;
import dev.muster.queue.core.queueing.QueueState.Entry;

/**
 * The jobs with an object on the fleet API that are not deleted yet, by UID: those applied there, and those submitted on
 * Kafka once status sync has shown them there. Each change is recorded in the queue's pending state records.
 */
final class FleetApiObjects {

    private final Map<String, FleetApiJob> jobs = new LinkedHashMap<>();
    private final Map<String, byte[]> pendingState;

    FleetApiObjects(Map<String, byte[]> pendingState) {
        this.pendingState = pendingState;
    }

    /** Takes the record if it is one of these; whether it was. */
    boolean restore(Entry record) {
        if (!QueueState.FLEET_API_JOBS.holds(record.key())) {
            return false;
        }
        FleetApiJob job = QueueState.FLEET_API_JOBS.read(record.value());
        jobs.put(job.uid(), job);
        return true;
    }

    /** A job applied on the fleet API: the object is the job, its UID the job's. */
    void applied(JobRef job) {
        put(FleetApiJob.of(job, job.uid()));
    }

    /**
     * Status sync showed the job with this object. The first object it is shown with is the job's: status sync writes
     * another only when that one is gone, so one found later means the first was deleted, perhaps while nobody watched.
     */
    void shown(JobRef job, String objectUid) {
        FleetApiJob known = jobs.get(job.uid());
        if (known == null || known.objectUid() == null && objectUid != null) {
            put(FleetApiJob.of(job, objectUid));
        }
    }

    /** The UID of the job's object on the fleet API, when known. */
    Optional<String> objectUid(String uid) {
        return Optional.ofNullable(jobs.get(uid)).map(FleetApiJob::objectUid);
    }

    /** The job was deleted: its object is no longer looked for. */
    void deleted(String uid) {
        if (jobs.remove(uid) != null) {
            pendingState.put(QueueState.FLEET_API_JOBS.key(uid), null);
        }
    }

    List<JobRef> refs() {
        return jobs.values().stream().map(FleetApiJob::ref).toList();
    }

    List<FleetApiJob> objects() {
        return List.copyOf(jobs.values());
    }

    private void put(FleetApiJob job) {
        jobs.put(job.uid(), job);
        pendingState.put(QueueState.FLEET_API_JOBS.key(job.uid()), QueueState.encode(job));
    }
}
