package dev.muster.placement.core.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.resource.ResourceList;

class GangPlacerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:00:00Z"), ZoneOffset.UTC);
    private static final JobRef JOB = new JobRef("default", "pytorch-test", "uid-1");

    private final GangPlacer placer = new GangPlacer(CLOCK);

    @Test
    void anAdmittedJobWithNoKnownMemberFailsPlacementSayingWhy() {
        JobEvent admitted = JobEvent.create("/muster/queue-service", JOB, CLOCK.instant(), new JobAdmitted(null, null, null, ResourceList.empty()));

        List<JobEvent> decisions = placer.handle(admitted);

        assertThat(decisions).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(GangPlacer.SOURCE);
            assertThat(event.job()).isEqualTo(JOB);
            assertThat(event.data()).isEqualTo(new PlacementFailed(Map.of(), GangPlacer.NO_MEMBERS));
        });
    }

    @Test
    void eventsOtherThanAdmissionsLeadToNothing() {
        assertThat(placer.handle(JobEvent.create("/x", JOB, CLOCK.instant(), new JobQueued(null, "r", "m", null, ResourceList.empty())))).isEmpty();
    }
}
