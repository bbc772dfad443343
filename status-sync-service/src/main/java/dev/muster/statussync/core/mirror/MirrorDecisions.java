package dev.muster.statussync.core.mirror;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.job.PyTorchJobStatus;

/**
 * What the mirror decided in one step: job events to publish, fleet job statuses to write, member copies to purge.
 */
public record MirrorDecisions(List<JobEvent> events, List<FleetStatus> statuses, List<Purge> purges) {

    public MirrorDecisions {
        events = List.copyOf(events);
        statuses = List.copyOf(statuses);
        purges = List.copyOf(purges);
    }

    /**
     * The fleet job's status as it should read now: its current member copy's.
     *
     * @param observedAt when status sync saw the member change it mirrors, for the sync lag
     */
    public record FleetStatus(JobRef job, String cluster, PyTorchJobStatus status, Instant observedAt) {
    }

    /**
     * Delete a member copy of a fleet job and the reservations made for it on that member; gone ones are fine.
     *
     * @param copyUid    the copy to delete: a newer copy of the job on the same member is left alone
     * @param jobDeleted the fleet job is gone: every reservation made for it on the member goes too
     */
    public record Purge(String cluster, JobRef job, String copyUid, String reason, boolean jobDeleted) {
    }

    public static MirrorDecisions none() {
        return new MirrorDecisions(List.of(), List.of(), List.of());
    }

    /** These decisions followed by those. */
    public MirrorDecisions and(MirrorDecisions more) {
        if (more.events.isEmpty() && more.statuses.isEmpty() && more.purges.isEmpty()) {
            return this;
        }
        List<JobEvent> allEvents = new ArrayList<>(events);
        allEvents.addAll(more.events);
        List<FleetStatus> allStatuses = new ArrayList<>(statuses);
        allStatuses.addAll(more.statuses);
        List<Purge> allPurges = new ArrayList<>(purges);
        allPurges.addAll(more.purges);
        return new MirrorDecisions(allEvents, allStatuses, allPurges);
    }

    public boolean isEmpty() {
        return events.isEmpty() && statuses.isEmpty() && purges.isEmpty();
    }
}
