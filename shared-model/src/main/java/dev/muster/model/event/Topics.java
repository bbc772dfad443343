package dev.muster.model.event;

import java.util.List;
import java.util.Set;

/**
 * The Kafka topics Muster's services exchange events on. Each topic has one writer; every job event is
 * keyed by the job's fleet UID, and all job topics have the same partition count, so one job's events
 * stay in order and a job's events on different topics land on the same partition number.
 */
public final class Topics {

    /** Jobs submitted and deleted, written by users (the Kafka path) and by the fleet API ingress. */
    public static final String SUBMISSIONS = "muster.job.submissions";
    /** Queued, admitted, rejected, preempted and withdrawn jobs, written by the queue service. */
    public static final String ADMISSIONS = "muster.job.admissions";
    /** Placement attempts, failures, bindings, jobs given back to their queue and preempted jobs stopped, written by the placement service. */
    public static final String PLACEMENTS = "muster.job.placements";
    /** Member job status, failovers and finished jobs, written by the status-sync service. */
    public static final String MEMBER_STATUS = "muster.job.member-status";
    /** PropagationPolicies and the ElasticQuotaTree as applied, keyed by Kind/namespace/name; one partition, compacted. */
    public static final String FLEET_CONFIG = "muster.fleet.config";
    /** The queue service's own state (tree, policies, each job's standing), keyed per object; compacted. */
    public static final String QUEUE_STATE = "muster.queue.state";
    /** The placement service's state (waiting, reserving, creating and bound jobs), compacted, keyed by job UID. */
    public static final String PLACEMENT_STATE = "muster.placement.state";
    /** Member cluster nodes and pods, written by the status-sync service and keyed by cluster. */
    public static final String INVENTORY = "muster.cluster.inventory";
    /** Records no service could read, with the reason and the original payload. */
    public static final String DEAD_LETTER = "muster.dead-letter";

    /** Every topic, in the order of the flow. */
    public static final List<String> ALL = List.of(SUBMISSIONS, FLEET_CONFIG, ADMISSIONS, PLACEMENTS, MEMBER_STATUS, INVENTORY,
            QUEUE_STATE, PLACEMENT_STATE, DEAD_LETTER);

    /** Topics that hold the latest record per key: compacted, never trimmed by age. */
    public static final Set<String> COMPACTED = Set.of(FLEET_CONFIG, QUEUE_STATE, PLACEMENT_STATE);

    /** Topics that keep one total order across all their keys: a single partition. */
    public static final Set<String> SINGLE_PARTITION = Set.of(FLEET_CONFIG);

    private Topics() {
    }
}
