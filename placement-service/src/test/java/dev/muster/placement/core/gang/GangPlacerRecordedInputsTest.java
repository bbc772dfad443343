package dev.muster.placement.core.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementTick;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceList;
import dev.muster.placement.core.Fleets;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.time.TestClock;

/**
 * What members answer to placement's writes, and its ticks, reach the core as events read from the log: each decides
 * what the direct call decides, after the round trip through the record format, and an answer read twice decides
 * nothing the second time.
 */
class GangPlacerRecordedInputsTest {

    private static final JobRef JOB = new JobRef("team-a", "trainer", "uid-1");

    private final TestClock clock = new TestClock();
    private final GangPlacer placer = new GangPlacer(PlacementSettings.defaults(), clock);

    private static MusterEvent recorded(MusterEvent event) throws Exception {
        return EventSerde.deserialize(EventSerde.serialize(event));
    }

    private MusterEvent answer(MemberResult result) throws Exception {
        return recorded(JobEvent.create(GangPlacer.SOURCE, result.job(), clock.instant(), result.answered()));
    }

    private void admittedOnto(String... clusters) {
        for (String cluster : clusters) {
            placer.handle(MemberEvent.create("/test", clock.instant(),
                    new MemberEventData.MemberReported(new MemberSnapshot(cluster, true, true, Map.of(), clock.instant()))));
            placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported(cluster, Fleets.node(cluster + "-0", "8", "0"))));
        }
        PyTorchJob job = Seed.job(JOB.namespace(), JOB.name());
        job.getMetadata().setUid(JOB.uid());
        placer.handle(JobEvent.create("/muster/queue-service", JOB, clock.instant(), new JobAdmitted(job, null, "root/team-a", ResourceList.empty())));
    }

    @Test
    void everyKindOfAnswerReadsBackAsTheResultItStandsFor() {
        List<MemberResult> results = List.of(new MemberResult.JobCreated("cluster-a", JOB), new MemberResult.Evicting("cluster-a", JOB, "2 pods"),
                new MemberResult.Evicting("cluster-a", JOB, ""), new MemberResult.Failed("cluster-a", JOB, "create", "forbidden: quota exceeded"));

        results.forEach(result -> assertThat(MemberResult.of(JOB, result.answered())).isEqualTo(result));
    }

    @Test
    void aRecordedJobCreatedBindsTheJobOnceAndItsRepeatDecidesNothing() throws Exception {
        admittedOnto("cluster-a");
        String cluster = placer.drainState().get(JOB.uid()).cluster();

        Decisions bound = placer.handle(answer(new MemberResult.JobCreated(cluster, JOB)));
        Decisions repeated = placer.handle(answer(new MemberResult.JobCreated(cluster, JOB)));

        assertThat(bound.events()).singleElement().satisfies(event -> assertThat(event.data()).isInstanceOf(JobBound.class));
        assertThat(placer.bound()).containsEntry(JOB.uid(), cluster);
        assertThat(repeated).isEqualTo(Decisions.none());
    }

    @Test
    void aRecordedFailureReleasesTheReservationsAndTriesTheNextCluster() throws Exception {
        admittedOnto("cluster-a", "cluster-b");
        String first = placer.drainState().get(JOB.uid()).cluster();

        Decisions failed = placer.handle(answer(new MemberResult.Failed(first, JOB, "create", "the member refused the job")));

        assertThat(failed.commands()).anySatisfy(command -> assertThat(command).isInstanceOf(MemberCommand.Release.class)
                .extracting(MemberCommand::cluster).isEqualTo(first));
        assertThat(failed.commands()).anySatisfy(command -> assertThat(command).isInstanceOf(MemberCommand.Reserve.class)
                .extracting(MemberCommand::cluster).isNotEqualTo(first));
    }

    @Test
    void aRecordedTickGivesUpOnUnconfirmedReservationsAsTheTickDoes() throws Exception {
        admittedOnto("cluster-a");
        clock.advance(PlacementSettings.defaults().reservationTimeout().plus(Duration.ofSeconds(1)));

        Decisions ticked = placer.handle(recorded(ConfigEvent.create(GangPlacer.SOURCE, clock.instant(), new PlacementTick())));

        assertThat(ticked.commands()).as("the unconfirmed reservations are released")
                .anySatisfy(command -> assertThat(command).isInstanceOf(MemberCommand.Release.class));
        assertThat(placer.drainState().get(JOB.uid()).stage()).isNotEqualTo(PlacementRecord.Stage.RESERVING);
    }
}
