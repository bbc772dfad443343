package dev.muster.placement.core.gang;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementFailed;

/**
 * Decides where an admitted job's whole gang goes. A cluster becomes a candidate once it has reported
 * its inventory; until one has, every admitted job fails placement saying so, rather than waiting silently.
 */
public final class GangPlacer {

    public static final String SOURCE = "/muster/placement-service";
    public static final String NO_MEMBERS = "no member cluster has reported its inventory to placement; the job cannot be placed yet";

    private final Clock clock;

    public GangPlacer(Clock clock) {
        this.clock = clock;
    }

    /** The events a consumed event leads to; events other than admissions lead to none yet. */
    public List<JobEvent> handle(MusterEvent consumed) {
        if (!(consumed instanceof JobEvent event) || !(event.data() instanceof JobAdmitted)) {
            return List.of();
        }
        return List.of(event.followUp(SOURCE, event.job(), clock.instant(), new PlacementFailed(Map.of(), NO_MEMBERS)));
    }
}
