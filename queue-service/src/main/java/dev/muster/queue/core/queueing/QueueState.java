package dev.muster.queue.core.queueing;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.JobManifest;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.JobStanding;

/**
 * The queue service's state as records of its compacted state topic: the applied tree ({@value #TREE}), each
 * policy ({@code policy/<namespace>/<name>}), each job it tracks ({@code job/<uid>}) and each job that finished
 * but is not deleted yet ({@code finished/<uid>}, so that listing it again does not run it again). A null value
 * removes a key.
 */
public final class QueueState {

    public static final String TREE = "tree";
    private static final String POLICY_PREFIX = "policy/";
    private static final String JOB_PREFIX = "job/";
    private static final String FINISHED_PREFIX = "finished/";

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
