package dev.muster.model.event;

import java.util.List;
import java.util.Set;

/**
 * The Kafka topics Muster's services exchange events on, each with who writes it. The topics of the services'
 * decisions (admissions, placements, member status, inventory and the two state topics) have one writer each, in one
 * transaction with what it consumed; the two input topics (submissions, fleet config) are written by producers
 * outside Muster and by the queue service's fleet ingress; placement's results topic by placement's own executor and
 * ticker (its inputs, not its decisions); and dead letters by every service. Every job event is
 * keyed by the job's fleet UID, and all job topics have the same partition count, so one job's events stay in
 * order and a job's events on different topics land on the same partition number.
 */
public final class Topics {

    /** Jobs submitted and deleted: written by producers (the Kafka path, {@code kubectl muster submit}) and by the queue service's fleet API ingress. */
    public static final String SUBMISSIONS = "muster.job.submissions";
    /** Queued, admitted, rejected, preempted and withdrawn jobs, written by the queue service. */
    public static final String ADMISSIONS = "muster.job.admissions";
    /** Placement attempts, failures, bindings, jobs given back to their queue and preempted jobs stopped, written by the placement service. */
    public static final String PLACEMENTS = "muster.job.placements";
    /** Member job status, failovers, finished jobs and Kafka submissions shown on the fleet API, written by the status-sync service. */
    public static final String MEMBER_STATUS = "muster.job.member-status";
    /**
     * PropagationPolicies, the ElasticQuotaTree and PriorityClasses as applied, keyed by Kind/namespace/name; one partition,
     * compacted. Written by producers, by the queue service's fleet API ingress, and by the queue service's ticker
     * ({@code dev.muster.config.queue-tick}, which only the queue reads).
     */
    public static final String FLEET_CONFIG = "muster.fleet.config";
    /** The queue service's own state (tree, policies, each job's standing), keyed per object; compacted; written by the queue service. */
    public static final String QUEUE_STATE = "muster.queue.state";
    /** The placement service's state (waiting, reserving, creating, bound and stopping jobs), compacted, keyed by job UID; written by placement. */
    public static final String PLACEMENT_STATE = "muster.placement.state";
    /**
     * The member copies status sync follows, keyed by cluster and job UID, compacted: what a new instance judges a member
     * that does not answer by, until it answers. Written and read by the status-sync service alone.
     */
    public static final String STATUS_SYNC_STATE = "muster.status-sync.state";
    /**
     * What came of the placement service's member writes, and its ticks: inputs it sends itself, so that what follows
     * from them is decided in a transaction like everything else. Keyed by job UID (ticks by one key of their own);
     * written and read by the placement service alone.
     */
    public static final String PLACEMENT_RESULTS = "muster.placement.results";
    /** Member cluster nodes and pods, written by the status-sync service and keyed by cluster. */
    public static final String INVENTORY = "muster.cluster.inventory";
    /** Records a service could not read, with the reason and the original payload (cut to fit): written by every service. */
    public static final String DEAD_LETTER = "muster.dead-letter";

    /**
     * Where a submitter's inboxes start: on a secured cluster a submitter (a Kafka principal) may write only its own inbox,
     * {@code muster.job.submissions.<principal>}, and the queue service forwards to {@link #SUBMISSIONS} what it submits
     * and deletes in namespaces it may use (see {@code SubmissionGate}). On an open cluster producers write
     * {@link #SUBMISSIONS} directly.
     */
    public static final String INBOX_PREFIX = SUBMISSIONS + ".";

    /** Every topic, in the order of the flow. */
    public static final List<String> ALL = List.of(SUBMISSIONS, FLEET_CONFIG, ADMISSIONS, PLACEMENTS, MEMBER_STATUS, INVENTORY,
            QUEUE_STATE, PLACEMENT_STATE, PLACEMENT_RESULTS, STATUS_SYNC_STATE, DEAD_LETTER);

    /** Topics that hold the latest record per key: compacted, never trimmed by age. */
    public static final Set<String> COMPACTED = Set.of(FLEET_CONFIG, QUEUE_STATE, PLACEMENT_STATE, STATUS_SYNC_STATE);

    /** Topics that keep one total order across all their keys: a single partition. */
    public static final Set<String> SINGLE_PARTITION = Set.of(FLEET_CONFIG);

    private Topics() {
    }

    /** The inbox of a submitter, by the name of its Kafka principal ({@code User:team-a-ci} has {@code team-a-ci}). */
    public static String inboxOf(String principal) {
        return INBOX_PREFIX + principal;
    }

    /** Whether the topic is a submitter's inbox. */
    public static boolean isInbox(String topic) {
        return topic.startsWith(INBOX_PREFIX) && topic.length() > INBOX_PREFIX.length();
    }

    /** The principal whose inbox the topic is. */
    public static String inboxOwner(String inbox) {
        if (!isInbox(inbox)) {
            throw new IllegalArgumentException(inbox + " is not a submitter's inbox (" + INBOX_PREFIX + "<principal>)");
        }
        return inbox.substring(INBOX_PREFIX.length());
    }
}
