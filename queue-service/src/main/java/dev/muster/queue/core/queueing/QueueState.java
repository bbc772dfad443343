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
 * job holds until deleted ({@code name/<uid>}) and the last refused change of each configuration object
 * ({@code refused/<Kind>/<namespace>/<name>}). A null value
 * removes a key.
 */
public final class QueueState {

    public static final String TREE = "tree";
    private static final String POLICY_PREFIX = "policy/";
    private static final String JOB_PREFIX = "job/";
    private static final String FINISHED_PREFIX = "finished/";
    private static final String NAME_PREFIX = "name/";
    private static final String REFUSED_PREFIX = "refused/";

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
     */
    public record TrackedJob(JobRef ref, JobManifest job, PropagationPolicy policy, ResourceList demand, JobStanding standing) {
    }

    /**
     * The last change to a configuration object that the queue refused, with why and when: the views show it beside
     * what stays in force.
     */
    public record ConfigRefusal(ConfigRef object, java.util.List<String> reasons, java.time.Instant at) {
    }

    static String policyKey(String namespace, String name) {
        return POLICY_PREFIX + namespace + "/" + name;
    }

    static String jobKey(String uid) {
        return JOB_PREFIX + uid;
    }

    static String finishedKey(String uid) {
        return FINISHED_PREFIX + uid;
    }

    static boolean isFinished(String key) {
        return key.startsWith(FINISHED_PREFIX);
    }

    static JobRef finished(byte[] value) {
        return decode(value, JobRef.class);
    }

    /** The name a job holds until it is deleted, keyed by its UID. */
    static String nameKey(String uid) {
        return NAME_PREFIX + uid;
    }

    static boolean isName(String key) {
        return key.startsWith(NAME_PREFIX);
    }

    static JobRef name(byte[] value) {
        return decode(value, JobRef.class);
    }

    /** The last refused change of a configuration object, keyed by {@code Kind/namespace/name}. */
    static String refusedKey(String objectKey) {
        return REFUSED_PREFIX + objectKey;
    }

    static boolean isRefused(String key) {
        return key.startsWith(REFUSED_PREFIX);
    }

    static ConfigRefusal refusal(byte[] value) {
        return decode(value, ConfigRefusal.class);
    }

    static boolean isPolicy(String key) {
        return key.startsWith(POLICY_PREFIX);
    }

    static boolean isJob(String key) {
        return key.startsWith(JOB_PREFIX);
    }

    static byte[] encode(Object value) {
        return MusterJson.toBytes(value);
    }

    static ElasticQuotaTree tree(byte[] value) {
        return decode(value, ElasticQuotaTree.class);
    }

    static PropagationPolicy policy(byte[] value) {
        return decode(value, PropagationPolicy.class);
    }

    static TrackedJob job(byte[] value) {
        return decode(value, TrackedJob.class);
    }

    private static <T> T decode(byte[] value, Class<T> type) {
        return MusterJson.fromBytes(value, type);
    }
}
