package dev.muster.placement.core.gang;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobGivenBack;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.job.TopologyRequest;
import dev.muster.placement.core.Fleets;
import dev.muster.placement.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberHoldings;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.time.TestClock;

class GangPlacerTest {

    private static final JobRef JOB = new JobRef("default", "pytorch-test", "uid-1");

    /** A clock the test moves. */
    private final TestClock clock = new TestClock();
    private final GangPlacer placer = new GangPlacer(PlacementSettings.defaults(), clock);

    private JobEvent admitted(PyTorchJob job) {
        job.getMetadata().setUid(JOB.uid());
        return JobEvent.create("/muster/queue-service", JOB, clock.instant(), new JobAdmitted(job, null, "root/child-1", ResourceList.empty()));
    }

    private void member(String cluster, boolean reservations, int nodes, String cpu) {
        member(placer, cluster, reservations, nodes, cpu);
    }

    private void member(GangPlacer placer, String cluster, boolean reservations, int nodes, String cpu) {
        placer.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.MemberReported(new MemberSnapshot(cluster, true, reservations, Map.of(), clock.instant()))));
        for (int i = 0; i < nodes; i++) {
            placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported(cluster, Fleets.node(cluster + "-" + i, cpu, "0"))));
        }
    }

    /** A member whose one node could hold the seed job if it were empty, but whose load leaves 1 cpu free now. */
    private void busyMember(String cluster) {
        member(cluster, false, 1, "8");
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.PodReported(cluster, Fleets.load("busy", cluster + "-0", "7", "0"))));
    }

    private Decisions reservationReported(String cluster, String name, String phase, String node) {
        return placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationReported(cluster,
                new ReservationSnapshot(name, phase, node, ResourceList.empty(), List.of()))));
    }

    @Test
    void anAdmittedJobWithNoKnownMemberFailsPlacementSayingWhy() {
        Decisions decisions = placer.handle(admitted(Seed.job("default", "pytorch-test")));

        assertThat(decisions.commands()).isEmpty();
        assertThat(decisions.events()).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(GangPlacer.SOURCE);
            assertThat(event.data()).isEqualTo(new PlacementFailed(Map.of(), GangPlacer.NO_MEMBERS));
        });
    }

    @Test
    void onAMemberWithoutReservationsTheJobIsCreatedThenBoundWithTheSeedsMessage() {
        member("cluster-b", false, 2, "4");

        Decisions decisions = placer.handle(admitted(Seed.job("default", "pytorch-test")));

        assertThat(decisions.events()).singleElement().extracting(JobEvent::data).isEqualTo(new PlacementAttempted("cluster-b", null));
        assertThat(decisions.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.CreateJob.class, create -> {
            assertThat(create.cluster()).isEqualTo("cluster-b");
            assertThat(create.memberJob().getMetadata().getLabels())
                    .containsEntry(MemberJobs.FLEET_JOB_UID, "uid-1").containsEntry(MemberJobs.MANAGED_BY, "muster")
                    .containsEntry(MemberJobs.POD_GROUP, "pytorch-test").containsEntry(MemberJobs.MIN_AVAILABLE, "3");
        });

        Decisions bound = placer.result(new MemberResult.JobCreated("cluster-b", JOB));

        assertThat(bound.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobBound.class, jobBound ->
                assertThat(jobBound.message()).isEqualTo("Binding has been scheduled successfully. Result: {cluster-b:0,[{master 1} {worker 2}]}"));
        assertThat(placer.bound()).containsEntry("uid-1", "cluster-b");
        assertThat(placer.handle(admitted(Seed.job("default", "pytorch-test")))).as("a repeated admission").isEqualTo(Decisions.none());
    }

    /** A member of two racks of two 8-GPU nodes; in {@code busyRack}, one node is full. */
    @Test
    void aCreationThatGotNoAnswerIsAskedOfTheSameMemberAgainUntilItAnswersAndNeverMadeElsewhere() {
        member("cluster-b", false, 2, "4");
        member("cluster-c", false, 2, "4");
        MemberCommand.CreateJob first = (MemberCommand.CreateJob) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);
        String member = first.cluster();

        // The connection is cut as the member answers: the copy may exist there.
        Decisions unanswered = placer.result(new MemberResult.Unanswered(member, JOB, "creating the job", "An error has occurred."));

        assertThat(unanswered.commands()).as("nothing is made on another member").isEmpty();
        assertThat(unanswered.events()).singleElement().extracting(JobEvent::data).isEqualTo(new PlacementFailed(Map.of(member,
                "creating the job got no answer: An error has occurred."), "asking member cluster " + member
                + " again until it answers: the copy may exist there, and one made elsewhere could run the job twice"));
        clock.advance(Duration.ofSeconds(4));
        assertThat(placer.tick()).as("before it is due").isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));
        assertThat(placer.tick().commands()).singleElement().isInstanceOfSatisfying(MemberCommand.CreateJob.class, again -> {
            assertThat(again.cluster()).isEqualTo(member);
            assertThat(again.memberJob()).isEqualTo(first.memberJob());
        });
        assertThat(placer.tick()).as("asked once, its answer awaited").isEqualTo(Decisions.none());
        assertThat(placer.result(new MemberResult.Unanswered(member, JOB, "creating the job", "connect timed out")))
                .as("the job was told why it waits already").isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(5));
        assertThat(placer.tick().commands()).singleElement().extracting(MemberCommand::cluster).isEqualTo(member);

        // A new owner does not know whether the creation it finds owed was made: it asks at once.
        restarted();
        assertThat(resumed.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.CreateJob.class,
                again -> assertThat(again.cluster()).isEqualTo(member));
        // Found there, made by the first ask: the job is bound where its copy is.
        assertThat(placer.result(new MemberResult.JobCreated(member, JOB)).events()).singleElement().extracting(JobEvent::data)
                .isInstanceOf(JobBound.class);
        assertThat(placer.bound()).containsOnly(Map.entry("uid-1", member));
    }

    private void rackedMember(String cluster, int busyRack) {
        placer.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.MemberReported(new MemberSnapshot(cluster, true, false, Map.of(), clock.instant()))));
        Fleets.racked(cluster, 2, 2, "96", "8").nodeStates().forEach(node -> placer.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.NodeReported(cluster, new dev.muster.model.inventory.NodeSnapshot(node.name(), node.labels(), List.of(),
                        node.allocatable(), true, false)))));
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.PodReported(cluster,
                Fleets.load("busy", cluster + "-" + busyRack * 2, "8", "8"))));
    }

    private static void assertConfinedTo(MemberCommand command, String rack) {
        assertThat(command).isInstanceOfSatisfying(MemberCommand.CreateJob.class, create ->
                create.memberJob().getSpec().pytorchReplicaSpecs().values().forEach(replica ->
                        assertThat(replica.template().getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                                .getNodeSelectorTerms()).singleElement().satisfies(term -> assertThat(term.getMatchExpressions()).singleElement()
                                .isEqualTo(new NodeSelectorRequirement(TopologyLevels.RACK, "In", List.of(rack))))));
    }

    /**
     * The pods of a gang that asks for a rack carry a node affinity for the rack chosen, so the member cannot spread them;
     * failed over, the gang is confined to a rack of its new member, chosen from that member's nodes.
     */
    @Test
    void theCopyOfAGangThatRequiresARackIsConfinedToTheRackChosenOnEachMemberItIsPlacedOn() {
        rackedMember("cluster-r", 0);
        JobEvent admission = admitted(Fleets.asking(Fleets.job("pytorch-test", 2, "8"), TopologyRequest.REQUIRED, TopologyLevels.RACK));

        Decisions decisions = placer.handle(admission);

        assertThat(decisions.events()).singleElement().extracting(JobEvent::data)
                .isEqualTo(new PlacementAttempted("cluster-r", null, TopologyLevels.RACK + "=r1"));
        assertThat(decisions.commands()).singleElement().satisfies(command -> assertConfinedTo(command, "r1"));
        assertThat(((MemberCommand.CreateJob) decisions.commands().get(0)).memberJob().getMetadata().getAnnotations())
                .containsEntry(MemberJobs.ADMITTED_AT, admission.time().toString());

        placer.result(new MemberResult.JobCreated("cluster-r", JOB));
        rackedMember("cluster-s", 1);
        Decisions moved = placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new FailoverTriggered("cluster-r", "MemberUnreachable", "member unreachable for 31s", "Immediately")));

        assertThat(moved.commands()).singleElement().satisfies(command -> {
            assertThat(command.cluster()).isEqualTo("cluster-s");
            assertConfinedTo(command, "r0");
        });
    }

    /** The domain is kept with the attempt: a new owner creates the copy before it has read any member's nodes again. */
    @Test
    void aNewOwnerThatCreatesTheCopyOfAGangThatRequiresARackConfinesItBeforeItKnowsTheMembersNodes() {
        rackedMember("cluster-r", 0);
        placer.handle(admitted(Fleets.asking(Fleets.job("pytorch-test", 2, "8"), TopologyRequest.REQUIRED, TopologyLevels.RACK)));

        restarted();

        assertThat(resumed.commands()).singleElement().satisfies(command -> assertConfinedTo(command, "r1"));
    }

    @Test
    void aJobThatEndsBeforeItsCreationIsAnsweredIsAnnouncedBoundBeforeItIsForgotten() {
        member("cluster-b", false, 2, "4");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));

        Decisions finished = placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new JobFinished("cluster-b", "Succeeded", null)));

        assertThat(finished.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobBound.class,
                jobBound -> assertThat(jobBound.cluster()).isEqualTo("cluster-b"));
        assertThat(placer.bound()).doesNotContainKey("uid-1");
        assertThat(placer.result(new MemberResult.JobCreated("cluster-b", JOB))).as("the late answer").isEqualTo(Decisions.none());
        assertThat(placer.drainState().get("uid-1")).as("only its finished copy, until the job is deleted")
                .extracting(PlacementRecord::stage, PlacementRecord::cluster).containsExactly(PlacementRecord.Stage.FINISHED, "cluster-b");
    }

    /** A copy it left behind ended (a failover's), not the job: it is still created where it is being created. */
    @Test
    void aJobThatEndsElsewhereThanItIsBeingCreatedIsNotAnnouncedBoundThereNorForgotten() {
        member("cluster-b", false, 2, "4");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));

        Decisions finished = placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new JobFinished("cluster-a", "Succeeded", null)));

        assertThat(finished.events()).isEmpty();
        assertThat(placer.result(new MemberResult.JobCreated("cluster-b", JOB)).events()).singleElement().extracting(JobEvent::data)
                .isInstanceOfSatisfying(JobBound.class, jobBound -> assertThat(jobBound.cluster()).isEqualTo("cluster-b"));
        assertThat(placer.bound()).containsEntry("uid-1", "cluster-b");
    }

    /** The copy a failover left on the first cluster ends there: the job keeps its binding to the second, and its quota. */
    @Test
    void aCopyLeftBehindByAFailoverThatEndsLeavesTheJobBoundWhereItRuns() {
        member("cluster-b", false, 2, "4");
        member("cluster-c", false, 2, "4");
        String first = ((PlacementAttempted) placer.handle(admitted(Seed.job("default", "pytorch-test"))).events().get(0).data()).cluster();
        placer.result(new MemberResult.JobCreated(first, JOB));
        String other = first.equals("cluster-b") ? "cluster-c" : "cluster-b";
        placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new FailoverTriggered(first, "MemberUnreachable", "member unreachable for 31s", "Immediately")));
        placer.result(new MemberResult.JobCreated(other, JOB));

        Decisions leftBehind = placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new JobFinished(first, "Succeeded", null)));

        assertThat(leftBehind).isEqualTo(Decisions.none());
        assertThat(placer.bound()).containsEntry("uid-1", other);
        assertThat(placer.drainState().get("uid-1")).as("still bound, not a finished copy").extracting(PlacementRecord::stage)
                .isNotEqualTo(PlacementRecord.Stage.FINISHED);
    }

    @Test
    void onAReservingMemberTheJobIsCreatedOnlyOnceEveryReservationIsAvailable() {
        member("cluster-a", true, 2, "8");

        Decisions reserve = placer.handle(admitted(Seed.job("default", "pytorch-test")));

        MemberCommand.Reserve command = (MemberCommand.Reserve) reserve.commands().get(0);
        assertThat(command.reservations()).hasSize(3).allSatisfy(reservation -> {
            assertThat(reservation.getMetadata().getName()).startsWith("pytorch-test-uid1-");
            assertThat(reservation.getSpec().template().getSpec().getNodeName()).startsWith("cluster-a-");
            assertThat(reservation.getSpec().owners()).singleElement().satisfies(owner -> assertThat(owner.object().getName()).startsWith("pytorch-test-"));
            assertThat(reservation.getSpec().ttl()).isEqualTo("10m");
        });
        assertThat(reserve.events()).singleElement().extracting(JobEvent::data).isEqualTo(new PlacementAttempted("cluster-a", "pytorch-test-uid1-0-0"));

        List<String> names = command.reservations().stream().map(reservation -> reservation.getMetadata().getName()).toList();
        assertThat(reservationReported("cluster-a", names.get(0), Reservation.AVAILABLE, "cluster-a-0").commands()).isEmpty();
        assertThat(reservationReported("cluster-a", names.get(1), Reservation.AVAILABLE, "cluster-a-0").commands()).isEmpty();
        Decisions create = reservationReported("cluster-a", names.get(2), Reservation.AVAILABLE, "cluster-a-1");

        assertThat(create.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.CreateJob.class, job ->
                assertThat(job.memberJob().getMetadata().getAnnotations()).containsEntry(MemberJobs.RESERVATION, "pytorch-test-uid1-0-0"));
        assertThat(placer.result(new MemberResult.JobCreated("cluster-a", JOB)).events()).singleElement()
                .extracting(event -> ((JobBound) event.data()).reservation()).isEqualTo("pytorch-test-uid1-0-0");
    }

    @Test
    void reservationsNotConfirmedInTimeAreReleasedAndTheNextClusterIsTried() {
        member("cluster-a", true, 2, "8");
        member("cluster-b", false, 2, "4");
        Decisions reserve = placer.handle(admitted(Seed.job("default", "pytorch-test")));
        assertThat(reserve.commands()).singleElement().isInstanceOf(MemberCommand.Reserve.class);

        clock.advance(Duration.ofSeconds(29));
        assertThat(placer.tick()).isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));
        Decisions next = placer.tick();

        assertThat(next.commands()).hasSize(2);
        assertThat(next.commands().get(0)).isInstanceOfSatisfying(MemberCommand.Release.class, release -> {
            assertThat(release.cluster()).isEqualTo("cluster-a");
            assertThat(release.reservations()).hasSize(3);
        });
        assertThat(next.commands().get(1)).isInstanceOfSatisfying(MemberCommand.CreateJob.class, create ->
                assertThat(create.cluster()).isEqualTo("cluster-b"));
        // The job is told which cluster was given up on, and why, before it is tried on the next.
        assertThat(next.events()).extracting(JobEvent::data).containsExactly(new PlacementFailed(Map.of("cluster-a",
                "reservations not confirmed within 30s"), "gave up on member cluster cluster-a and released its reservations; trying the next cluster"),
                new PlacementAttempted("cluster-b", null));
    }

    @Test
    void aJobThatFitsNowhereWaitsAndIsTriedAgainWhenInventoryChangesAfterItsBackoff() {
        busyMember("small");
        Decisions failed = placer.handle(admitted(Seed.job("default", "pytorch-test")));
        assertThat(failed.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(PlacementFailed.class, placement ->
                assertThat(placement.clusterReasons()).containsEntry("small", "the gang needs 4010m cpu in all, the cluster has 1 free"));

        // A bigger node arrives before the backoff is over: nothing yet.
        Decisions early = placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported("small", Fleets.node("small-9", "8", "0"))));
        assertThat(early).isEqualTo(Decisions.none());
        clock.advance(Duration.ofSeconds(1));
        Decisions placed = placer.tick();

        assertThat(placed.events()).singleElement().extracting(JobEvent::data).isEqualTo(new PlacementAttempted("small", null));
    }

    @Test
    void aJobDeletedWhileReservingReleasesItsReservationsAndIsStoppedWhereItWasGoing() {
        member("cluster-a", true, 2, "8");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));

        Decisions deleted = placer.handle(JobEvent.create("/muster/fleet-ingress", JOB, clock.instant(), new JobDeleted("deleted from the fleet API")));

        assertThat(deleted.commands()).hasSize(2).first().isInstanceOfSatisfying(MemberCommand.Release.class, release ->
                assertThat(release.reservations()).hasSize(3));
        assertThat(deleted.commands().get(1)).isEqualTo(new MemberCommand.Evict("cluster-a", JOB));
        assertThat(reservationReported("cluster-a", "pytorch-test-uid1-master-0", Reservation.AVAILABLE, "cluster-a-0")).isEqualTo(Decisions.none());
    }

    @Test
    void aJobAdmittedUnderQuotaThatWaitsTooLongGivesItsQuotaBack() {
        busyMember("small");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));

        clock.advance(Duration.ofMinutes(4));
        assertThat(placer.tick().events()).noneMatch(event -> event.data() instanceof JobGivenBack);
        clock.advance(Duration.ofMinutes(1));
        Decisions givenBack = placer.tick();

        assertThat(givenBack.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobGivenBack.class, back ->
                assertThat(back.reason()).startsWith("no member cluster could take it for 5m: {small=the gang needs 4010m cpu"));
        // Forgotten: the queue admits it again later, and a new node does not place the old admission.
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported("small", Fleets.node("small-9", "8", "0"))));
        clock.advance(Duration.ofMinutes(2));
        assertThat(placer.tick()).isEqualTo(Decisions.none());
    }

    /** A new owner of the service, restored from what this one wrote to the state topic, seeing the same members. */
    private GangPlacer restarted() {
        Map<String, PlacementRecord> written = new java.util.LinkedHashMap<>();
        placer.drainState().forEach((uid, record) -> {
            if (record == null) {
                written.remove(uid);
            } else {
                written.put(uid, PlacementRecord.decode(record.encode()));
            }
        });
        GangPlacer next = new GangPlacer(PlacementSettings.defaults(), clock);
        resumed = next.restore(written);
        return next;
    }

    private Decisions resumed;

    @Test
    void aNewOwnerResumesAReservingJobByAskingForTheSameReservationsAgain() {
        member("cluster-a", true, 2, "8");
        MemberCommand.Reserve first = (MemberCommand.Reserve) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);

        GangPlacer next = restarted();

        assertThat(resumed.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.Reserve.class, again ->
                assertThat(again.reservations()).extracting(reservation -> reservation.getMetadata().getName())
                        .containsExactlyElementsOf(first.reservations().stream().map(reservation -> reservation.getMetadata().getName()).toList()));
        next.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.MemberReported(new MemberSnapshot("cluster-a", true, true, Map.of(), clock.instant()))));
        Decisions create = Decisions.none();
        for (Reservation reservation : first.reservations()) {
            create = next.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationReported("cluster-a",
                    new ReservationSnapshot(reservation.getMetadata().getName(), Reservation.AVAILABLE, "cluster-a-0", ResourceList.empty(), List.of()))));
        }
        assertThat(create.commands()).singleElement().isInstanceOf(MemberCommand.CreateJob.class);
        assertThat(next.result(new MemberResult.JobCreated("cluster-a", JOB)).events()).singleElement()
                .extracting(JobEvent::data).isInstanceOf(JobBound.class);
    }

    @Test
    void aNewOwnerKnowsWhatIsBoundAndWhatWaitsAndNeverPlacesABoundJobAgain() {
        member("cluster-b", false, 2, "4");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));
        placer.result(new MemberResult.JobCreated("cluster-b", JOB));
        JobRef waitingJob = new JobRef("default", "too-big", "uid-2");
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.PodReported("cluster-b", Fleets.load("busy", "cluster-b-0", "3", "0"))));
        // Fits cluster-b empty, not beside the bound job: it waits.
        PyTorchJob big = Fleets.job("too-big", 1, "0");
        big.getMetadata().setUid("uid-2");
        placer.handle(JobEvent.create("/q", waitingJob, clock.instant(), new JobAdmitted(big, null, "root/child-1", ResourceList.empty())));

        GangPlacer next = restarted();

        assertThat(resumed).isEqualTo(Decisions.none());
        assertThat(next.bound()).containsEntry("uid-1", "cluster-b");
        assertThat(next.handle(admitted(Seed.job("default", "pytorch-test")))).isEqualTo(Decisions.none());
        // The waiting job is still given back on time by the new owner.
        clock.advance(Duration.ofMinutes(5));
        assertThat(next.tick().events()).extracting(JobEvent::data).hasAtLeastOneElementOfType(JobGivenBack.class);
    }

    @Test
    void aDeletedJobLeavesNothingInTheState() {
        member("cluster-b", false, 2, "4");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));
        placer.result(new MemberResult.JobCreated("cluster-b", JOB));
        placer.handle(JobEvent.create("/muster/fleet-ingress", JOB, clock.instant(), new JobDeleted("deleted")));
        placer.result(new MemberResult.Evicting("cluster-b", JOB, ""));

        assertThat(placer.drainState()).containsEntry("uid-1", null);
    }

    @Test
    void reconcilingAdoptsAMemberCopyOfAJobTheLogStillHadWaitingAndReleasesLeakedReservations() {
        busyMember("small");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));
        GangPlacer next = restarted();

        // A previous owner created the copy on cluster-b (and reserved on cluster-a for a job it no longer tracks), then crashed.
        Decisions reconciled = next.reconcile(new MemberHoldings("cluster-b", Map.of(), Map.of("uid-1", "default/pytorch-test")))
                .and(next.reconcile(new MemberHoldings("cluster-a", Map.of("gone-1234-master-0", "uid-gone"), Map.of())));

        assertThat(reconciled.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobBound.class, bound ->
                assertThat(bound.cluster()).isEqualTo("cluster-b"));
        assertThat(next.bound()).containsEntry("uid-1", "cluster-b");
        assertThat(reconciled.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.Release.class, release -> {
            assertThat(release.cluster()).isEqualTo("cluster-a");
            assertThat(release.reservations()).containsExactly("gone-1234-master-0");
        });
    }

    @Test
    void reconcilingKeepsTheReservationsOfJobsBeingReservedOrBoundThere() {
        member("cluster-a", true, 2, "8");
        MemberCommand.Reserve reserve = (MemberCommand.Reserve) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);
        Map<String, String> held = new java.util.HashMap<>();
        reserve.reservations().forEach(reservation -> held.put(reservation.getMetadata().getName(), "uid-1"));
        GangPlacer next = restarted();

        assertThat(next.reconcile(new MemberHoldings("cluster-a", held, Map.of()))).isEqualTo(Decisions.none());
        assertThat(next.reconcile(new MemberHoldings("cluster-a", held, Map.of("uid-1", "default/pytorch-test"))))
                .as("its copy there is the attempt's own").isEqualTo(Decisions.none());
    }

    @Test
    void aJobThatFailsOverAvoidsTheClusterItLeftAndIsPlacedAgainAtOnce() {
        member("cluster-b", false, 2, "4");
        member("cluster-c", false, 2, "4");
        JobEvent admission = admitted(Seed.job("default", "pytorch-test"));
        JobEvent firstAttempt = placer.handle(admission).events().get(0);
        String first = ((PlacementAttempted) firstAttempt.data()).cluster();
        JobEvent firstBound = placer.result(new MemberResult.JobCreated(first, JOB)).events().get(0);
        String other = first.equals("cluster-b") ? "cluster-c" : "cluster-b";

        Decisions moved = placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new FailoverTriggered(first, "MemberUnreachable", "member unreachable for 31s", "Immediately")));

        assertThat(moved.events()).singleElement().satisfies(event -> {
            assertThat(event.data()).isEqualTo(new PlacementAttempted(other, null));
            assertThat(event.id()).isNotEqualTo(firstAttempt.id());
        });
        JobEvent secondBound = placer.result(new MemberResult.JobCreated(other, JOB)).events().get(0);
        assertThat(secondBound.id()).as("a new binding, not a repeat of the first").isNotEqualTo(firstBound.id());
        assertThat(placer.bound()).containsEntry("uid-1", other);

        // Failing over again, from the second cluster, while the first is still excluded: nowhere to go, and it says why.
        GangPlacer next = restarted();
        member(next, "cluster-b", false, 2, "4");
        member(next, "cluster-c", false, 2, "4");
        Decisions stuck = next.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new FailoverTriggered(other, "PodUnschedulable", "pods unschedulable for 31s", "Immediately")));
        assertThat(stuck.events()).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(PlacementFailed.class, failed ->
                assertThat(failed.clusterReasons().get(first)).startsWith("excluded after a failover of this job until"));
    }

    @Test
    void reconcilingLeavesTheCopyAJobFailedOverFromToBePurgedAndPlacesTheJobElsewhere() {
        member("cluster-b", false, 2, "4");
        placer.handle(admitted(Seed.job("default", "pytorch-test")));
        placer.result(new MemberResult.JobCreated("cluster-b", JOB));
        // cluster-b stops answering; the job fails over while placement has no other member yet, and it waits.
        placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(),
                new FailoverTriggered("cluster-b", "MemberUnreachable", "member unreachable for 31s", "Immediately")));
        GangPlacer next = restarted();
        member(next, "cluster-b", false, 2, "4");

        // cluster-b answers again before status sync has purged the old copy, and a new owner reads it.
        Decisions reconciled = next.reconcile(new MemberHoldings("cluster-b", Map.of("pytorch-test-1234-master-0", "uid-1"),
                Map.of("uid-1", "default/pytorch-test")));

        assertThat(reconciled.events()).as("the copy the job left is not its binding").isEmpty();
        assertThat(next.bound()).doesNotContainKey("uid-1");
        assertThat(reconciled.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.Release.class, release ->
                assertThat(release.reservations()).containsExactly("pytorch-test-1234-master-0"));
        member(next, "cluster-c", false, 2, "4");
        clock.advance(Duration.ofMinutes(1)); // past its backoff, short of cluster-b's exclusion
        assertThat(next.tick().commands()).as("the job is placed on the member that joined").singleElement()
                .extracting(MemberCommand::cluster).isEqualTo("cluster-c");
    }

    @Test
    void aMemberThatLeavesTheFleetIsNoLongerPlacedOnAndItsAttemptsMoveOn() {
        member("cluster-a", true, 2, "8");
        member("cluster-b", false, 2, "4");
        Decisions reserve = placer.handle(admitted(Seed.job("default", "pytorch-test")));
        assertThat(reserve.commands()).singleElement().extracting(MemberCommand::cluster).isEqualTo("cluster-a");

        Decisions left = placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.MemberRemoved("cluster-a")));

        assertThat(left.commands()).extracting(command -> command.getClass().getSimpleName() + " " + command.cluster())
                .containsExactly("Release cluster-a", "CreateJob cluster-b");
        assertThat(placer.clusterNames()).containsExactly("cluster-b");
    }

    @Test
    void theCopyCarriesItsPlacementGenerationAndFailoverPolicy() {
        member("cluster-b", false, 2, "4");
        PyTorchJob job = Seed.job("default", "pytorch-test");
        job.getMetadata().setUid(JOB.uid());
        JobEvent admitted = JobEvent.create("/muster/queue-service", JOB, clock.instant(),
                new JobAdmitted(job, Seed.queuePolicy("default"), "child-2", ResourceList.empty()));

        MemberCommand.CreateJob create = (MemberCommand.CreateJob) placer.handle(admitted).commands().get(0);

        assertThat(MemberJobs.generation(create.memberJob())).isZero();
        assertThat(MemberJobs.failover(create.memberJob())).contains(new dev.muster.model.policy.FailoverPolicy(java.time.Duration.ofSeconds(30),
                dev.muster.model.policy.FailoverPolicy.PurgeMode.IMMEDIATELY));
    }

    @Test
    void aGangNoMemberCouldHoldEvenEmptyIsRejectedNamingTheResourceAndTheLargestMember() {
        member("cluster-a", false, 2, "8");
        member("cluster-b", false, 1, "8");
        JobRef huge = new JobRef("default", "huge", "uid-9");
        PyTorchJob job = Fleets.job("huge", 8, "0");
        job.getMetadata().setUid("uid-9");

        Decisions decisions = placer.handle(JobEvent.create("/q", huge, clock.instant(), new JobAdmitted(job, null, "root/child-1", ResourceList.empty())));

        assertThat(decisions.commands()).isEmpty();
        assertThat(decisions.events()).singleElement().extracting(JobEvent::data).isEqualTo(new JobRejected(List.of(
                "no member cluster could hold the whole gang even with nothing else running: the job needs 33 cpu in all; the largest"
                        + " member, cluster-a, has 16")));
        assertThat(placer.drainState()).containsEntry("uid-9", null);
    }

    /**
     * After a restart placement reads the members' inventories again from the beginning: a member known only in part
     * (one node of two read) must not get a gang rejected for good. It waits, and is judged once the reading is done.
     */
    @Test
    void aGangIsJudgedNeverToFitOnlyOnceTheInventoriesAreReadWhole() {
        placer.inventoryWhole(false);
        member("cluster-a", false, 1, "8");
        PyTorchJob job = Fleets.job("big", 2, "0");
        job.getMetadata().setUid("uid-9");
        JobRef big = new JobRef("default", "big", "uid-9");

        Decisions whileReading = placer.handle(JobEvent.create("/q", big, clock.instant(), new JobAdmitted(job, null, "root/child-1", ResourceList.empty())));
        placer.inventoryWhole(true);
        clock.advance(Duration.ofMinutes(1));
        Decisions whole = placer.tick();

        assertThat(whileReading.events()).singleElement().extracting(JobEvent::data).isInstanceOf(PlacementFailed.class);
        assertThat(whole.events()).singleElement().extracting(JobEvent::data).isInstanceOf(JobRejected.class);
    }

    @Test
    void aGangThatWouldFitAMemberThatDoesNotAnswerIsNotRejected() {
        member("cluster-a", false, 1, "8");
        placer.handle(MemberEvent.create("/test", clock.instant(),
                new MemberEventData.MemberReported(new MemberSnapshot("cluster-big", false, false, Map.of(), clock.instant()))));
        PyTorchJob job = Fleets.job("huge", 8, "0");
        job.getMetadata().setUid("uid-9");

        Decisions decisions = placer.handle(JobEvent.create("/q", new JobRef("default", "huge", "uid-9"), clock.instant(),
                new JobAdmitted(job, null, "root/child-1", ResourceList.empty())));

        assertThat(decisions.events()).singleElement().extracting(JobEvent::data).isInstanceOf(PlacementFailed.class);
    }

    @Test
    void reservationsOfABoundJobThatItsPodsDoNotUseAreReleased() {
        member("cluster-a", true, 2, "8");
        MemberCommand.Reserve reserve = (MemberCommand.Reserve) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);
        List<Reservation> made = reserve.reservations();
        for (Reservation reservation : made) {
            placer.handle(reservationOf(reservation, Reservation.AVAILABLE, reservation.getSpec().template().getSpec().getNodeName(), List.of()));
        }
        placer.result(new MemberResult.JobCreated("cluster-a", JOB));
        Reservation master = made.stream().filter(reservation -> reservation.getMetadata().getName().endsWith("-master-0")).findFirst().orElseThrow();
        Reservation worker = made.stream().filter(reservation -> reservation.getMetadata().getName().endsWith("-worker-0")).findFirst().orElseThrow();
        String otherNode = master.getSpec().template().getSpec().getNodeName().equals("cluster-a-0") ? "cluster-a-1" : "cluster-a-0";

        // Its pod runs on another node than its reservation: released at once.
        Decisions elsewhere = placer.handle(podBound("pytorch-test-master-0", otherNode));
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationRemoved("cluster-a", master.getMetadata().getName())));
        // A pod bound on its reservation's node whose owner is not written yet is given the reservation timeout.
        Decisions sameNode = placer.handle(podBound("pytorch-test-worker-0", worker.getSpec().template().getSpec().getNodeName()));
        clock.advance(Duration.ofSeconds(31));
        Decisions afterGrace = placer.tick();
        // One from an earlier placement of the job, still held on the member.
        Decisions earlier = placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationReported("cluster-a",
                new ReservationSnapshot("pytorch-test-uid1-0-1-worker-1", Reservation.AVAILABLE, "cluster-a-1", ResourceList.empty(), List.of(),
                        "uid-1", List.of("default/pytorch-test-worker-1")))));

        assertThat(released(elsewhere)).containsExactly(master.getMetadata().getName());
        assertThat(released(sameNode)).isEmpty();
        assertThat(released(afterGrace)).containsExactly(worker.getMetadata().getName());
        assertThat(released(earlier)).containsExactly("pytorch-test-uid1-0-1-worker-1");
        assertThat(placer.tick().commands()).as("asked once").isEmpty();
    }

    /**
     * A job given up on a member whose release of its reservations did not reach it (the member unreachable): the
     * reservations still shown are asked for again every reservation timeout until they are gone, the job having run
     * elsewhere and been forgotten meanwhile.
     */
    @Test
    void reservationsLeftByAReleaseThatNeverReachedTheMemberAreAskedForAgainUntilGone() {
        member("cluster-a", true, 2, "8");
        member("cluster-b", false, 2, "4");
        MemberCommand.Reserve reserve = (MemberCommand.Reserve) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);
        List<String> names = reserve.reservations().stream().map(reservation -> reservation.getMetadata().getName()).toList();
        // Two of three made, one of them pending; the third never confirmed.
        placer.handle(reservationOf(reserve.reservations().get(0), Reservation.AVAILABLE, "cluster-a-0", List.of()));
        placer.handle(reservationOf(reserve.reservations().get(1), Reservation.PENDING, null, List.of()));
        clock.advance(Duration.ofSeconds(30));
        assertThat(released(placer.tick())).as("the release lost").containsExactlyElementsOf(names);
        placer.result(new MemberResult.JobCreated("cluster-b", JOB));
        placer.handle(JobEvent.create("/muster/status-sync-service", JOB, clock.instant(), new JobFinished("cluster-b", "Succeeded", null)));
        assertThat(placer.bound()).doesNotContainKey("uid-1");

        clock.advance(Duration.ofSeconds(29));
        Decisions early = placer.tick();
        clock.advance(Duration.ofSeconds(1));
        Decisions askedAgain = placer.tick();
        clock.advance(Duration.ofSeconds(30));
        Decisions andAgain = placer.tick();
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationRemoved("cluster-a", names.get(0))));
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationRemoved("cluster-a", names.get(1))));
        clock.advance(Duration.ofSeconds(60));
        Decisions gone = placer.tick();

        assertThat(early).isEqualTo(Decisions.none());
        assertThat(askedAgain.commands()).hasSize(2).allSatisfy(command -> assertThat(command).isInstanceOfSatisfying(MemberCommand.Release.class,
                release -> assertThat(release.cluster()).isEqualTo("cluster-a")));
        assertThat(released(askedAgain)).containsExactlyInAnyOrder(names.get(0), names.get(1));
        assertThat(released(andAgain)).containsExactlyInAnyOrder(names.get(0), names.get(1));
        assertThat(gone).isEqualTo(Decisions.none());
    }

    /**
     * A reservation of a job placement does not track (made for an attempt a restart forgot, whose release no one
     * asked for) is found by the sweep and released once a reservation timeout has passed.
     */
    @Test
    void aReservationOfAJobPlacementDoesNotTrackIsReleasedAfterTheGrace() {
        member("cluster-a", true, 2, "8");
        placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationReported("cluster-a",
                new ReservationSnapshot("forgotten-uid9-0-0-worker-0", Reservation.AVAILABLE, "cluster-a-1", ResourceList.empty(), List.of(),
                        "uid-9", List.of("default/forgotten-worker-0")))));

        Decisions first = placer.tick();
        clock.advance(Duration.ofSeconds(29));
        Decisions withinGrace = placer.tick();
        clock.advance(Duration.ofSeconds(1));
        Decisions afterGrace = placer.tick();

        assertThat(first).isEqualTo(Decisions.none());
        assertThat(withinGrace).isEqualTo(Decisions.none());
        assertThat(afterGrace.commands()).singleElement().isInstanceOfSatisfying(MemberCommand.Release.class, release -> {
            assertThat(release.cluster()).isEqualTo("cluster-a");
            assertThat(release.job().uid()).isEqualTo("uid-9");
            assertThat(release.reservations()).containsExactly("forgotten-uid9-0-0-worker-0");
        });
    }

    /**
     * What the sweep leaves alone: the reservations of the attempt under way (its member slow to create the copy), and
     * reservations Muster did not make (no fleet job on them).
     */
    @Test
    void theReservationsOfAnAttemptUnderWayAndThoseMusterDidNotMakeAreNeverReleased() {
        member("cluster-a", true, 2, "8");
        MemberCommand.Reserve reserve = (MemberCommand.Reserve) placer.handle(admitted(Seed.job("default", "pytorch-test"))).commands().get(0);
        for (Reservation reservation : reserve.reservations()) {
            placer.handle(reservationOf(reservation, Reservation.AVAILABLE, reservation.getSpec().template().getSpec().getNodeName(), List.of()));
        }
        reservationReported("cluster-a", "someone-elses", Reservation.AVAILABLE, "cluster-a-1");

        List<String> released = new ArrayList<>();
        for (int tick = 0; tick < 10; tick++) {
            clock.advance(Duration.ofSeconds(30));
            released.addAll(released(placer.tick()));
        }

        assertThat(released).isEmpty();
        assertThat(placer.result(new MemberResult.JobCreated("cluster-a", JOB)).events()).singleElement().extracting(JobEvent::data)
                .isInstanceOf(JobBound.class);
    }

    private MemberEvent reservationOf(Reservation reservation, String phase, String node, List<String> owners) {
        return MemberEvent.create("/test", clock.instant(), new MemberEventData.ReservationReported("cluster-a", new ReservationSnapshot(
                reservation.getMetadata().getName(), phase, node, ResourceList.empty(), owners, "uid-1",
                reservation.getSpec().owners().stream().map(owner -> owner.object().getNamespace() + "/" + owner.object().getName()).toList())));
    }

    private MemberEvent podBound(String pod, String node) {
        return MemberEvent.create("/test", clock.instant(), new MemberEventData.PodReported("cluster-a",
                new dev.muster.model.inventory.PodSnapshot("default", pod, node, ResourceList.parse(Map.of("cpu", "10m", "pods", "1")), false)));
    }

    private static List<String> released(Decisions decisions) {
        return decisions.commands().stream().filter(MemberCommand.Release.class::isInstance)
                .flatMap(command -> ((MemberCommand.Release) command).reservations().stream()).toList();
    }

    /**
     * Placement learns the GPU pods' shapes from the admissions it reads (even of a gang that fits nowhere): scoring by
     * fragmentation, a CPU-only job then leaves the GPU node's CPUs to its GPUs; scoring by best fit, it takes them.
     */
    @Test
    void scoringByFragmentationACpuOnlyJobKeepsOffTheCpusOfFreeGpusThePodsSeenNeed() {
        for (dev.muster.placement.core.fit.Scoring scoring : dev.muster.placement.core.fit.Scoring.values()) {
            PlacementSettings defaults = PlacementSettings.defaults();
            GangPlacer placer = new GangPlacer(new PlacementSettings(defaults.reservationTimeout(), defaults.reservationTtl(), defaults.retryBackoff(),
                    defaults.maxRetryBackoff(), defaults.giveBackAfter(), defaults.failoverExclusion(), defaults.evictionCheck(), Map.of(),
                    TopologyLevels.DEFAULT, scoring), clock);
            member(placer, "cpu-pool", false, 1, "64");
            placer.handle(MemberEvent.create("/test", clock.instant(), new MemberEventData.NodeReported("gpu-pool", Fleets.node("gpu-pool-0", "4", "8"))));
            placer.handle(MemberEvent.create("/test", clock.instant(),
                    new MemberEventData.MemberReported(new MemberSnapshot("gpu-pool", true, false, Map.of(), clock.instant()))));
            // Three 1-GPU workers of 4 CPUs each: more CPU than the GPU node has, so this gang fits nowhere.
            placer.handle(JobEvent.create("/muster/queue-service", new JobRef("default", "wide", "uid-wide"), clock.instant(),
                    new JobAdmitted(Fleets.job("wide", 3, "1"), null, "root/child-1", ResourceList.empty())));

            Decisions prep = placer.handle(admitted(Fleets.job("pytorch-test", 0, "0")));

            assertThat(prep.commands()).as(scoring.name()).singleElement().extracting(MemberCommand::cluster)
                    .isEqualTo(scoring == dev.muster.placement.core.fit.Scoring.FRAGMENTATION ? "cpu-pool" : "gpu-pool");
        }
    }
}
