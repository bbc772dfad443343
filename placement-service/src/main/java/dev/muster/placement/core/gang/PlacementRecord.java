package dev.muster.placement.core.gang;

import dev.muster.placement.core.eviction.Evictions;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.JobRef;
import dev.muster.model.job.TopologyDomain;
import dev.muster.model.json.MusterJson;

/**
 * One job's placement as the state topic keeps it: enough for a new owner of the placement service to carry
 * on where the last one stopped (wait, confirm reservations, create the member copy) without placing the job
 * twice.
 *
 * @param admitted      the admission event (CloudEvents JSON): the job and its policy, kept to place it again after a failover
 * @param plan          the node of each pod on {@code cluster}, while reserving or creating
 * @param excludedUntil clusters the job avoids after failing over from them, and until when
 * @param generation    how many times the job failed over: its events' ids differ from one placement to the next
 * @param eviction      while the job is stopped for a reclaim, how far that is; else null
 * @param finished      the job, once it ran to its end on {@code cluster}: its copy stays there until the job is deleted
 * @param domain        the topology domain the copy's pods are confined to, while reserving or creating; null when the
 *                      job asks for none (or the record predates it)
 */
public record PlacementRecord(Stage stage, String admitted, String cluster, String reservationGroup, List<String> reservations,
                              Map<String, String> plan, Instant deadline, Map<String, String> failed, Instant since, int tries,
                              Instant notBefore, Map<String, String> reasons, Map<String, Instant> excludedUntil, int generation,
                              Evictions.Eviction eviction, JobRef finished, TopologyDomain domain) {

    /** Where the job is in its placement. */
    public enum Stage {
        /** Fits nowhere now; tried again later. */
        WAITING,
        /** Reservations asked for on {@code cluster}; waiting for the member to confirm them. */
        RESERVING,
        /** The member copy is being created on {@code cluster}. */
        CREATING,
        /** On {@code cluster}, for good. */
        BOUND,
        /** Preempted or deleted: being stopped on {@code cluster}, until the member shows nothing of it. */
        EVICTING,
        /** Ran to its end on {@code cluster}, where its copy stays until the job is deleted. */
        FINISHED
    }

    public PlacementRecord {
        reservations = reservations == null ? List.of() : List.copyOf(reservations);
        plan = plan == null ? Map.of() : Map.copyOf(plan);
        failed = failed == null ? Map.of() : Map.copyOf(failed);
        reasons = reasons == null ? Map.of() : Map.copyOf(reasons);
        excludedUntil = excludedUntil == null ? Map.of() : Map.copyOf(excludedUntil);
    }

    public byte[] encode() {
        return MusterJson.toBytes(this);
    }

    public static PlacementRecord decode(byte[] bytes) {
        return MusterJson.fromBytes(bytes, PlacementRecord.class);
    }
}
