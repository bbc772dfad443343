package dev.muster.queue.core.queueing;

import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobManifest;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.JobStanding;

/**
 * The queue service's state as records of its compacted state topic: the applied tree ({@value #TREE}), each
 * policy ({@code policy/<namespace>/<name>}), each job it tracks ({@code job/<uid>}), each job that finished
 * but is not deleted yet ({@code finished/<uid>}, so that listing it again does not run it again), the name each
 * job holds until deleted ({@code name/<uid>}), each job with an object on the fleet API until deleted (applied there, or
 * submitted on Kafka and shown there by status sync: {@code fleet-api/<uid>}, so that a deletion made there while the queue
 * was not watching is found), each PriorityClass ({@code priority/<name>}), the last refused change
 * of each configuration object ({@code refused/<Kind>/<namespace>/<name>}) and when each admitted job was bound to a member
 * ({@code bound/<uid>}, from when its run time counts). A null value removes a key.
 */
public final class QueueState {

    public static final String TREE = "tree";
    private static final String POLICY_PREFIX = "policy/";
    private static final String JOB_PREFIX = "job/";
    private static final String FINISHED_PREFIX = "finished/";
    private static final String NAME_PREFIX = "name/";
    private static final String FLEET_API_PREFIX = "fleet-api/";
    private static final String REFUSED_PREFIX = "refused/";
    private static final String PRIORITY_PREFIX = "priority/";
    private static final String BOUND_PREFIX = "bound/";

    private QueueState() {
    }

    /** One key and its new value; a null value removes the key. */
    public record Entry(String key, byte[] value) {
    }

    /**
     * A job the queue tracks.
     *
     * @param job      the job's manifest, parsed when it is needed
     * @param policy   the effective policy, resolved once when the job was submitted; null while none matches
     * @param standing its standing in quota; null while no policy matches
     * @param priority its priority, resolved from its PriorityClass when it was submitted
     */
    public record TrackedJob(JobRef ref, JobManifest job, PropagationPolicy policy, ResourceList demand, JobStanding standing, int priority) {

        TrackedJob withStanding(JobStanding newStanding) {
            return new TrackedJob(ref, job, policy, demand, newStanding, priority);
        }
    }

    /**
     * The last change to a configuration object that the queue refused, with why and when: the views show it beside
     * what stays in force.
     */
    public record ConfigRefusal(ConfigRef object, java.util.List<String> reasons, java.time.Instant at) {
    }

    /**
     * One kind of record: its keys share a prefix, and its values are one type's JSON.
     *
     * @param <T> what a value reads as
     */
    record Kind<T>(String prefix, Class<T> type) {

        String key(String id) {
            return prefix + id;
        }

        boolean holds(String key) {
            return key.startsWith(prefix);
        }

        T read(byte[] value) {
            return MusterJson.fromBytes(value, type);
        }
    }

    /** Each policy, keyed by {@code namespace/name}. */
    static final Kind<PropagationPolicy> POLICIES = new Kind<>(POLICY_PREFIX, PropagationPolicy.class);
    /** Each job the queue tracks, keyed by its UID. */
    static final Kind<TrackedJob> JOBS = new Kind<>(JOB_PREFIX, TrackedJob.class);
    /** Each job that finished but is not deleted yet, keyed by its UID. */
    static final Kind<JobRef> FINISHED = new Kind<>(FINISHED_PREFIX, JobRef.class);
    /** The name each job holds until it is deleted, keyed by its UID. */
    static final Kind<JobRef> NAMES = new Kind<>(NAME_PREFIX, JobRef.class);
    /** Each job submitted through the fleet API that is not deleted yet, keyed by its UID. */
    static final Kind<FleetApiJob> FLEET_API_JOBS = new Kind<>(FLEET_API_PREFIX, FleetApiJob.class);
    /** The last refused change of each configuration object, keyed by {@code Kind/namespace/name}. */
    static final Kind<ConfigRefusal> REFUSALS = new Kind<>(REFUSED_PREFIX, ConfigRefusal.class);
    /** Each PriorityClass, keyed by its name. */
    static final Kind<dev.muster.model.event.PriorityClassApplied> PRIORITY_CLASSES = new Kind<>(PRIORITY_PREFIX,
            dev.muster.model.event.PriorityClassApplied.class);

    /** When each admitted job was bound to a member, keyed by its UID. */
    static final Kind<java.time.Instant> BOUND = new Kind<>(BOUND_PREFIX, java.time.Instant.class);

    static byte[] encode(Object value) {
        return MusterJson.toBytes(value);
    }

    static ElasticQuotaTree tree(byte[] value) {
        return MusterJson.fromBytes(value, ElasticQuotaTree.class);
    }
}
