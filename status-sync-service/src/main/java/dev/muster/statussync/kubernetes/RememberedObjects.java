package dev.muster.statussync.kubernetes;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.queue.QueueUnit;

/**
 * What status sync last wrote or read of each job's fleet object and QueueUnit, by the job's events' UID, the most
 * recently used kept. Status sync is the only writer of a fleet job's status and of its unit, each job's writes in
 * order, so what it wrote last is what is there; a write made from it says which version it expects, and reads the
 * object again when another one is there. Reading each object before each write was half of status sync's requests
 * to the fleet API.
 */
final class RememberedObjects {

    /**
     * A job's fleet object as last seen: its own UID (which Events and units name), its resourceVersion (null when
     * only the UID is known) and its status.
     */
    record Job(String objectUid, String resourceVersion, PyTorchJobStatus status) {
    }

    private final Map<String, Job> jobs;
    private final Map<String, QueueUnit> units;

    RememberedObjects(int capacity) {
        this.jobs = lru(capacity);
        this.units = lru(capacity);
    }

    Job job(String uid) {
        return jobs.get(uid);
    }

    void job(String uid, Job job) {
        jobs.put(uid, job);
    }

    QueueUnit unit(String uid) {
        return units.get(uid);
    }

    void unit(String uid, QueueUnit unit) {
        units.put(uid, unit);
    }

    void forgetJob(String uid) {
        jobs.remove(uid);
    }

    void forgetUnit(String uid) {
        units.remove(uid);
    }

    /** A map that keeps the {@code capacity} most recently used entries, safe to share between the write lanes. */
    static <V> Map<String, V> lru(int capacity) {
        return Collections.synchronizedMap(new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > capacity;
            }
        });
    }
}
