package dev.muster.placement.core.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
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
 * A job quota preempted for a reclaim is stopped whole on its member, and reported stopped only once the member shows
 * nothing of it: not its copy, not a pod (terminating ones included), not a reservation.
 */
class GangPlacerEvictionTest {

    private static final JobRef JOB = new JobRef("team-a", "borrower", "uid-1");

    private final TestClock clock = new TestClock();
    private GangPlacer placer = new GangPlacer(PlacementSettings.defaults(), clock);

    private JobEvent admitted() {
        PyTorchJob job = Seed.job("team-a", "borrower");
        job.getMetadata().setUid(JOB.uid());
        return JobEvent.create("/muster/queue-service", JOB, clock.instant(), new JobAdmitted(job, null, "root/team-a", ResourceList.empty()));
    }

    private JobEvent preempted() {
        return JobEvent.create("/muster/queue-service", JOB, clock.instant(), new JobPreempted("team-b/guaranteed", "uid-2",
                "preempted to return borrowed capacity to team-b/guaranteed"));
    }

    private void member(String cluster, boolean reservations) {
        placer.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.MemberReported(new MemberSnapshot(cluster, true, reservations, Map.of(), clock.instant()))));
        for (int i = 0; i < 2; i++) {
            placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported(cluster, Fleets.node(cluster + "-" + i, "8", "0"))));
        }
    }

    private void boundOn(String cluster) {
        member(cluster, false);
        placer.handle(admitted());
        placer.result(new MemberResult.JobCreated(cluster, JOB));
        assertThat(placer.bound()).containsEntry(JOB.uid(), cluster);
    }

    @Test
    void aBoundJobIsStoppedOnItsMemberAndReportedStoppedOnlyWhenTheMemberShowsNothingOfIt() {
        boundOn("cluster-b");

        Decisions preemption = placer.handle(preempted());

        assertThat(preemption.events()).as("not stopped yet").isEmpty();
        assertThat(preemption.commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        assertThat(placer.bound()).doesNotContainKey(JOB.uid());
        assertThat(placer.drainState().get(JOB.uid()).stage()).isEqualTo(PlacementRecord.Stage.EVICTING);

        assertThat(placer.result(new MemberResult.Evicting("cluster-b", JOB, "its member copy, 3 pods"))).isEqualTo(Decisions.none());
        assertThat(placer.tick().commands()).as("asked again only after the check interval").isEmpty();
        clock.advance(Duration.ofSeconds(1));
        assertThat(placer.tick().commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        clock.advance(Duration.ofMillis(300));
        assertThat(placer.tick().commands()).as("not asked twice while a question is out").isEmpty();

        Decisions stopped = placer.result(new MemberResult.Evicting("cluster-b", JOB, ""));

        assertThat(stopped.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobEvicted("cluster-b",
                "stopped on member cluster cluster-b for team-b/guaranteed: deleted its member copy, 3 pods, all gone after 1s"));
        assertThat(placer.drainState()).containsEntry(JOB.uid(), null);
        assertThat(placer.handle(preempted())).as("placement holds nothing of it any more").satisfies(again ->
                assertThat(again.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobEvicted(null, "it was on no member cluster (not placed yet, or finished already)")));
    }

    @Test
    void aJobNoMemberCouldTakeYetIsStoppedAtOnce() {
        placer.handle(admitted());

        Decisions preemption = placer.handle(preempted());

        assertThat(preemption.commands()).isEmpty();
        assertThat(preemption.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobEvicted(null, "it was on no member cluster (not placed yet, or finished already)"));
        clock.advance(Duration.ofMinutes(10));
        assertThat(placer.tick().events()).as("nothing left to retry or give back").isEmpty();
    }

    @Test
    void aJobBeingReservedHasItsReservationsReleasedAndIsStoppedWhereItWasGoing() {
        member("cluster-a", true);
        MemberCommand.Reserve reserve = (MemberCommand.Reserve) placer.handle(admitted()).commands().get(0);

        Decisions preemption = placer.handle(preempted());

        assertThat(preemption.commands()).containsExactly(new MemberCommand.Release("cluster-a", JOB,
                reserve.reservations().stream().map(reservation -> reservation.getMetadata().getName()).toList()), new MemberCommand.Evict("cluster-a", JOB));
    }

    @Test
    void aStopInProgressIsCarriedOnByARestartedPlacementAndReportedOnce() {
        boundOn("cluster-b");
        placer.handle(preempted());
        placer.result(new MemberResult.Evicting("cluster-b", JOB, "3 pods"));
        Map<String, PlacementRecord> written = new LinkedHashMap<>();
        placer.drainState().forEach((uid, record) -> written.put(uid, PlacementRecord.decode(record.encode())));

        placer = new GangPlacer(PlacementSettings.defaults(), clock);
        Decisions resumed = placer.restore(written);

        assertThat(resumed.commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        Decisions stopped = placer.result(new MemberResult.Evicting("cluster-b", JOB, ""));
        assertThat(stopped.events()).singleElement().extracting(JobEvent::data).isInstanceOf(JobEvicted.class);
        assertThat(placer.result(new MemberResult.Evicting("cluster-b", JOB, ""))).as("a late repeated answer").isEqualTo(Decisions.none());
    }

    @Test
    void aMemberThatDoesNotAnswerIsAskedAgainAndTheJobIsNotReportedStopped() {
        boundOn("cluster-b");
        placer.handle(preempted());

        assertThat(placer.result(new MemberResult.Failed("cluster-b", JOB, "stopping the job", "connection refused"))).isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));

        assertThat(placer.tick().commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
    }

    @Test
    void aMemberThatLeavesTheFleetTakesWhatWasStoppedThereWithIt() {
        boundOn("cluster-b");
        placer.handle(preempted());

        Decisions left = placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.MemberRemoved("cluster-b")));

        assertThat(left.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobEvicted.class, evicted ->
                assertThat(evicted.message()).startsWith("member cluster cluster-b left the fleet"));
    }

    /**
     * A deleted job is stopped whole too, and reported stopped, so that its quota is released only once its pods are gone;
     * the withdrawal of its admission that follows finds it being stopped already.
     */
    @Test
    void aDeletedJobIsStoppedWholeAndItsWithdrawalChangesNothingMore() {
        boundOn("cluster-b");

        Decisions deleted = placer.handle(JobEvent.create("/muster/fleet-ingress", JOB, clock.instant(), new dev.muster.model.event.JobDeleted("deleted")));
        Decisions withdrawn = placer.handle(JobEvent.create("/muster/queue-service", JOB, clock.instant(),
                new dev.muster.model.event.JobWithdrawn("deleted; its quota is released once it has stopped on its member")));
        Decisions stopped = placer.result(new MemberResult.Evicting("cluster-b", JOB, ""));

        assertThat(deleted.commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        assertThat(withdrawn).isEqualTo(Decisions.none());
        assertThat(stopped.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobEvicted("cluster-b", "stopped on member cluster cluster-b"));
    }

    @Test
    void aDeletionNamingAnotherJobThanItsUidsStopsNothing() {
        boundOn("cluster-b");

        Decisions forged = placer.handle(JobEvent.create("/mallory", new JobRef("team-mallory", "anything", JOB.uid()), clock.instant(),
                new dev.muster.model.event.JobDeleted("mine now")));
        Decisions deleted = placer.handle(JobEvent.create("/muster/fleet-ingress", JOB, clock.instant(), new dev.muster.model.event.JobDeleted("deleted")));

        assertThat(forged).isEqualTo(Decisions.none());
        assertThat(deleted.commands()).as("the job is still placement's to stop").containsExactly(new MemberCommand.Evict("cluster-b", JOB));
    }

    @Test
    void aWithdrawnJobPlacementDoesNotKnowAnyMoreIsReportedStoppedAtOnce() {
        Decisions withdrawn = placer.handle(JobEvent.create("/muster/queue-service", JOB, clock.instant(),
                new dev.muster.model.event.JobWithdrawn("deleted")));

        assertThat(withdrawn.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobEvicted(null, "it was on no member cluster (not placed yet, or finished already)"));
        assertThat(placer.handle(JobEvent.create("/muster/fleet-ingress", new JobRef("team-a", "other", "uid-9"), clock.instant(),
                new dev.muster.model.event.JobDeleted("deleted")))).as("a deletion of a job on no member says nothing").isEqualTo(Decisions.none());
    }
    private JobEvent finished(String cluster) {
        return JobEvent.create("/muster/status-sync-service", JOB, clock.instant(), new JobFinished(cluster, "Succeeded", null));
    }

    private JobEvent deleted() {
        return JobEvent.create("/muster/fleet-ingress", JOB, clock.instant(), new JobDeleted("deleted from the fleet API"));
    }

    /**
     * A finished job's copy stays on its member, as a finished Kubernetes Job does, until the job is deleted; then it is
     * stopped like a running one, asked of the member until it is gone. Status sync also purges it, but only from its
     * memory: a deletion it read while the member was away, just before a restart, left the copy for good (the fault storm
     * found team-a/storm-2's Succeeded copy on gpu-a a minute after its deletion).
     */
    @Test
    void aJobDeletedAfterItFinishedHasItsCopyRemovedFromItsMember() {
        boundOn("cluster-b");
        assertThat(placer.handle(finished("cluster-b")).commands()).as("a finished copy stays").isEmpty();
        assertThat(placer.drainState().get(JOB.uid())).extracting(PlacementRecord::stage).isEqualTo(PlacementRecord.Stage.FINISHED);

        Decisions deletion = placer.handle(deleted());

        assertThat(deletion.commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        assertThat(placer.result(new MemberResult.Failed("cluster-b", JOB, "stopping the job", "connection refused"))).isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));
        assertThat(placer.tick().commands()).as("a member away is asked again").containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        assertThat(placer.result(new MemberResult.Evicting("cluster-b", JOB, "")).events()).singleElement().extracting(JobEvent::data)
                .isInstanceOf(JobEvicted.class);
        assertThat(placer.drainState()).containsEntry(JOB.uid(), null);
    }

    @Test
    void aFinishedCopyIsRemovedOnDeletionByARestartedPlacement() {
        boundOn("cluster-b");
        placer.handle(finished("cluster-b"));
        Map<String, PlacementRecord> written = new LinkedHashMap<>();
        placer.drainState().forEach((uid, record) -> written.put(uid, PlacementRecord.decode(record.encode())));

        placer = new GangPlacer(PlacementSettings.defaults(), clock);
        assertThat(placer.restore(written).commands()).as("nothing to resume for a finished job").isEmpty();

        assertThat(placer.handle(deleted()).commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
    }

    @Test
    void aJobDeletedWhileItRanAndFinishingMeanwhileIsStillRemoved() {
        boundOn("cluster-b");
        placer.handle(deleted());
        placer.result(new MemberResult.Evicting("cluster-b", JOB, "its member copy, 3 pods"));

        assertThat(placer.handle(finished("cluster-b"))).isEqualTo(Decisions.none());

        clock.advance(Duration.ofSeconds(1));
        assertThat(placer.tick().commands()).as("the stop goes on").containsExactly(new MemberCommand.Evict("cluster-b", JOB));
    }

    @Test
    void aPreemptionOfAFinishedJobLeavesItsCopyForItsDeletion() {
        boundOn("cluster-b");
        placer.handle(finished("cluster-b"));

        assertThat(placer.handle(preempted()).commands()).isEmpty();

        assertThat(placer.handle(deleted()).commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));
    }

    /**
     * Placement crashed after creating a copy and before recording the member's answer. While it was down the job ran to
     * its end and was deleted, and status sync purged the copy. The creation its restore owes is owed no more once the
     * backlog it reads says so; carried out all the same (an 18-minute fault storm found it carried out at once, before
     * the backlog), its answer is one more thing still there to stop, not a failure of the batch.
     */
    @Test
    void aCreationARestartOwesIsOwedNoMoreOnceTheBacklogShowsTheJobRanAndWasDeleted() {
        member("cluster-b", false);
        MemberCommand create = placer.handle(admitted()).commands().get(0);
        Map<String, PlacementRecord> written = new LinkedHashMap<>();
        placer.drainState().forEach((uid, record) -> written.put(uid, PlacementRecord.decode(record.encode())));

        placer = new GangPlacer(PlacementSettings.defaults(), clock);
        MemberCommand resumed = placer.restore(written).commands().get(0);
        assertThat(resumed).isInstanceOf(MemberCommand.CreateJob.class).extracting(MemberCommand::cluster).isEqualTo("cluster-b");
        assertThat(placer.stillOwed(resumed)).as("owed until something says otherwise").isTrue();
        assertThat(placer.stillOwed(create)).isTrue();

        placer.handle(finished("cluster-b"));
        assertThat(placer.stillOwed(resumed)).as("the member ran it: the copy was made").isFalse();
        assertThat(placer.handle(deleted()).commands()).containsExactly(new MemberCommand.Evict("cluster-b", JOB));

        assertThat(placer.result(new MemberResult.JobCreated("cluster-b", JOB))).as("a creation answered during the stop")
                .isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));
        assertThat(placer.tick().commands()).as("the copy it made is stopped too").containsExactly(new MemberCommand.Evict("cluster-b", JOB));
        assertThat(placer.result(new MemberResult.Evicting("cluster-b", JOB, "")).events()).singleElement().extracting(JobEvent::data)
                .isInstanceOf(JobEvicted.class);
    }

    @Test
    void aReservationOrCreationForAnotherClusterThanTheAttemptsIsNotOwedAndStopsAreAlwaysCarriedOut() {
        member("cluster-a", true);
        member("cluster-b", false);
        MemberCommand reserve = placer.handle(admitted()).commands().get(0);
        assertThat(reserve).isInstanceOf(MemberCommand.Reserve.class);

        assertThat(placer.stillOwed(reserve)).isTrue();
        assertThat(placer.stillOwed(new MemberCommand.Reserve("cluster-b", JOB, java.util.List.of()))).isFalse();
        assertThat(placer.stillOwed(new MemberCommand.CreateJob(reserve.cluster(), JOB, null, java.util.List.of())))
                .as("no creation before its reservations hold").isFalse();
        assertThat(placer.stillOwed(new MemberCommand.Evict("cluster-c", JOB))).isTrue();
        assertThat(placer.stillOwed(new MemberCommand.Release("cluster-c", JOB, java.util.List.of("x")))).isTrue();

        placer.handle(deleted());
        assertThat(placer.stillOwed(reserve)).as("deleted while it was being reserved").isFalse();
    }
}
