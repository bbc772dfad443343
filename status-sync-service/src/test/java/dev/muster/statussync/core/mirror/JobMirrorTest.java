package dev.muster.statussync.core.mirror;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.statussync.core.mirror.MirrorDecisions.FleetStatus;
import dev.muster.statussync.core.mirror.MirrorDecisions.Purge;
import dev.muster.testing.time.TestClock;

class JobMirrorTest {

    private static final JobRef JOB = new JobRef("default", "pytorch-test", "fleet-uid");
    private static final Optional<FailoverPolicy> SEED_FAILOVER = Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY));

    private final TestClock clock = new TestClock();
    private final JobMirror mirror = new JobMirror(new MirrorSettings(3, Duration.ofSeconds(10)), clock);

    private static PyTorchJobStatus status(String... types) {
        List<JobCondition> conditions = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            boolean last = i == types.length - 1;
            conditions.add(new JobCondition(types[i], last || "Created".equals(types[i]) ? "True" : "False", "PyTorchJob" + types[i],
                    "PyTorchJob pytorch-test is " + types[i].toLowerCase() + ".", "t" + i, "t" + i));
        }
        return new PyTorchJobStatus(conditions, null, "t0", null, null, null);
    }

    private static MemberCopy copy(String cluster, int generation, Optional<FailoverPolicy> failover, PyTorchJobStatus status) {
        return new MemberCopy(cluster, JOB, "copy-" + cluster + "-" + generation, generation, failover, Optional.empty(), status);
    }

    private static <T extends JobEventData> List<T> events(MirrorDecisions decisions, Class<T> type) {
        return decisions.events().stream().map(JobEvent::data).filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void ofTwoCopiesOfOnePlacementTheOneWhereTheJobIsBoundIsItsAndTheOtherIsPurgedWhateverThePurgeMode() {
        Optional<FailoverPolicy> never = Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.NEVER));
        // The job's binding is read first; its copy there is seen after one on a member whose creation's answer was lost.
        mirror.handle(JobEvent.create("/muster/placement-service", JOB, clock.instant(), JobBound.of("gpu-b", null, Map.of())));
        mirror.copyObserved(copy("gpu-a", 0, never, status("Created", "Running")));
        MirrorDecisions second = mirror.copyObserved(copy("gpu-b", 0, never, status("Created", "Running")));

        assertThat(second.purges()).singleElement().satisfies(purge -> {
            assertThat(purge.cluster()).isEqualTo("gpu-a");
            assertThat(purge.reason()).isEqualTo("a second copy of the job: it is bound to gpu-b");
        });
        assertThat(second.statuses()).singleElement().extracting(FleetStatus::cluster).isEqualTo("gpu-b");
    }

    @Test
    void aSecondCopySeenBeforeTheBindingIsReadIsTheOneLeftOnceItIs() {
        mirror.copyObserved(copy("gpu-a", 0, Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.NEVER)), status("Created", "Running")));
        MirrorDecisions unknown = mirror.copyObserved(copy("gpu-b", 0, Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.NEVER)),
                status("Created", "Running")));
        assertThat(unknown.purges()).as("no binding read: left as a copy the job left is, and its purge mode is Never").isEmpty();

        MirrorDecisions bound = mirror.handle(JobEvent.create("/muster/placement-service", JOB, clock.instant(), JobBound.of("gpu-a", null, Map.of())));

        assertThat(bound.purges()).singleElement().extracting(Purge::cluster).isEqualTo("gpu-b");
    }

    @Test
    void theCurrentCopysStatusIsMirroredAndEachStateReportedOnce() {
        MirrorDecisions created = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created")));
        MirrorDecisions running = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));
        MirrorDecisions again = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        assertThat(events(created, MemberStatusChanged.class)).singleElement().extracting(MemberStatusChanged::state).isEqualTo("Created");
        assertThat(running.statuses()).singleElement().satisfies(status -> {
            assertThat(status.cluster()).isEqualTo("gpu-a");
            assertThat(status.status().currentCondition()).map(JobCondition::type).contains("Running");
        });
        assertThat(again.isEmpty()).isTrue();
    }

    @Test
    void theStatusLastMirroredIsGivenAgainForTheCurrentCopyButNotForOneFailedOverFrom() {
        assertThat(mirror.mirroredStatus(JOB.uid()).isEmpty()).as("nothing observed yet").isTrue();
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        assertThat(mirror.mirroredStatus(JOB.uid()).statuses()).singleElement().satisfies(status -> {
            assertThat(status.cluster()).isEqualTo("gpu-a");
            assertThat(status.status()).isEqualTo(status("Created", "Running"));
        });

        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(31));
        assertThat(events(mirror.tick(), FailoverTriggered.class)).hasSize(1);
        assertThat(mirror.mirroredStatus(JOB.uid()).isEmpty()).as("the job left gpu-a: its status there is not the job's").isTrue();
    }

    @Test
    void aMemberUnreachableLongerThanTheTolerationFailsTheJobOverAndPurgesItsCopyOnce() {
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions lost = mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(29));
        MirrorDecisions withinToleration = mirror.tick();
        clock.advance(Duration.ofSeconds(2));
        MirrorDecisions failedOver = mirror.tick();
        clock.advance(Duration.ofSeconds(1));
        MirrorDecisions after = mirror.tick();

        assertThat(events(lost, MemberStatusChanged.class)).singleElement().satisfies(changed -> {
            assertThat(changed.state()).isEqualTo("Unknown");
            assertThat(changed.reason()).isEqualTo("MemberUnreachable");
        });
        assertThat(withinToleration.isEmpty()).isTrue();
        assertThat(events(failedOver, FailoverTriggered.class)).singleElement().satisfies(failover -> {
            assertThat(failover.fromCluster()).isEqualTo("gpu-a");
            assertThat(failover.purgeMode()).isEqualTo("Immediately");
            assertThat(failover.reason()).isEqualTo("MemberUnreachable");
            assertThat(failover.message()).isEqualTo("member gpu-a is unreachable for 31s (toleration 30s)");
        });
        assertThat(failedOver.purges()).singleElement().extracting(Purge::cluster).isEqualTo("gpu-a");
        assertThat(after.isEmpty()).as("one failover, and the purge asked again only after the retry interval").isTrue();

        clock.advance(Duration.ofSeconds(10));
        assertThat(mirror.tick().purges()).as("the member has not confirmed the purge: asked again").hasSize(1);
    }

    @Test
    void aBlipShorterThanTheTolerationChangesNothing() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(20));
        MirrorDecisions back = mirror.memberObserved("gpu-a", true);
        clock.advance(Duration.ofSeconds(20));

        assertThat(events(back, MemberStatusChanged.class)).singleElement().extracting(MemberStatusChanged::state).isEqualTo("Running");
        assertThat(events(mirror.tick(), FailoverTriggered.class)).isEmpty();
        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(20));
        assertThat(events(mirror.tick(), FailoverTriggered.class)).as("the toleration counts from the latest trouble").isEmpty();
    }

    @Test
    void aContainerRestartedUnderOnFailureIsNoFailover() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));
        mirror.podObserved(new MemberPod("gpu-a", "default", "pytorch-test-worker-0", "pytorch-test", "Running", "1/1", 1, "node-1", Optional.empty()));

        MirrorDecisions restarting = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running", "Restarting")));
        clock.advance(Duration.ofMinutes(5));
        MirrorDecisions later = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Restarting", "Running")));

        MirrorDecisions restarted = mirror.podObserved(new MemberPod("gpu-a", "default", "pytorch-test-worker-0", "pytorch-test", "Running", "1/1", 2,
                "node-1", Optional.empty()));

        assertThat(events(restarting, MemberStatusChanged.class)).extracting(MemberStatusChanged::state).containsExactly("Restarting");
        assertThat(events(restarted, MemberStatusChanged.class)).singleElement().satisfies(changed -> {
            assertThat(changed.reason()).isEqualTo("PodRestarted");
            assertThat(changed.message()).isEqualTo("pod pytorch-test-worker-0 restarted in place (2 restarts in all)");
        });
        assertThat(events(later, FailoverTriggered.class)).isEmpty();
        assertThat(events(mirror.tick(), FailoverTriggered.class)).isEmpty();
    }

    @Test
    void anUnschedulablePodFailsTheJobOverAfterTheToleration() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created")));
        mirror.podObserved(new MemberPod("gpu-a", "default", "pytorch-test-master-0", "pytorch-test", "Pending", "0/1", 0, null,
                Optional.of(new Health.Problem("PodUnschedulable", "pod pytorch-test-master-0 is unschedulable: 0/4 nodes are available"))));
        clock.advance(Duration.ofSeconds(30));

        assertThat(events(mirror.tick(), FailoverTriggered.class)).singleElement().extracting(FailoverTriggered::message).asString()
                .isEqualTo("pod pytorch-test-master-0 is unschedulable: 0/4 nodes are available for 30s (toleration 30s)");
    }

    @Test
    void aPodOnANotReadyNodeIsUnhealthy() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));
        mirror.podObserved(new MemberPod("gpu-a", "default", "pytorch-test-master-0", "pytorch-test", "Running", "1/1", 0, "node-1", Optional.empty()));
        mirror.nodeObserved("gpu-a", "node-1", false);
        clock.advance(Duration.ofSeconds(31));

        assertThat(events(mirror.tick(), FailoverTriggered.class)).singleElement().extracting(FailoverTriggered::message).asString()
                .startsWith("pod pytorch-test-master-0 is on node node-1, which is NotReady");
    }

    @Test
    void graciouslyKeepsTheOldCopyUntilTheNewOneRuns() {
        Optional<FailoverPolicy> gracious = Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.GRACIOUSLY));
        mirror.copyObserved(copy("gpu-a", 0, gracious, status("Created", "Running")));
        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(31));

        MirrorDecisions failedOver = mirror.tick();
        MirrorDecisions newCreated = mirror.copyObserved(copy("gpu-b", 1, gracious, status("Created")));
        MirrorDecisions newRunning = mirror.copyObserved(copy("gpu-b", 1, gracious, status("Created", "Running")));

        assertThat(events(failedOver, FailoverTriggered.class)).hasSize(1);
        assertThat(failedOver.purges()).isEmpty();
        assertThat(newCreated.purges()).isEmpty();
        assertThat(newRunning.purges()).singleElement().satisfies(purge -> {
            assertThat(purge.cluster()).isEqualTo("gpu-a");
            assertThat(purge.reason()).isEqualTo("the job runs again on gpu-b");
        });
        assertThat(newRunning.statuses()).singleElement().extracting(MirrorDecisions.FleetStatus::cluster).isEqualTo("gpu-b");
    }

    @Test
    void neverLeavesTheJobWhereItIsAndReportsItsTroubleOnce() {
        mirror.copyObserved(copy("gpu-a", 0, Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.NEVER)), status("Created", "Running")));
        mirror.podObserved(new MemberPod("gpu-a", "default", "pytorch-test-master-0", "pytorch-test", "Running", "0/1", 6, "node-1",
                Optional.of(new Health.Problem("PodCrashLooping", "pod pytorch-test-master-0 is crash-looping (container pytorch, 6 restarts)"))));
        clock.advance(Duration.ofMinutes(2));
        MirrorDecisions later = mirror.tick();

        assertThat(events(later, FailoverTriggered.class)).isEmpty();
        assertThat(later.purges()).isEmpty();
        assertThat(mirror.pods()).hasSize(1);
        clock.advance(Duration.ofMinutes(2));
        assertThat(mirror.tick().isEmpty()).isTrue();
    }

    @Test
    void anOlderPlacementsCopyIsPurgedWhenItComesBack() {
        // The member was unreachable when the job failed over; after a restart, status sync sees both copies.
        mirror.copyObserved(copy("gpu-b", 1, SEED_FAILOVER, status("Created", "Running")));
        MirrorDecisions back = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        assertThat(back.purges()).singleElement().satisfies(purge -> {
            assertThat(purge.cluster()).isEqualTo("gpu-a");
            assertThat(purge.reason()).isEqualTo("the job was placed again, on gpu-b");
        });
        assertThat(back.statuses()).as("the fleet shows the newest placement only").isEmpty();
    }

    @Test
    void aDeletedJobHasEveryCopyPurged() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions deleted = mirror.handle(JobEvent.create("/test", JOB, clock.instant(), new JobDeleted("deleted from the fleet API")));
        MirrorDecisions gone = mirror.copyGone("gpu-a", JOB.uid());

        assertThat(deleted.purges()).singleElement().satisfies(purge -> {
            assertThat(purge.reason()).isEqualTo("the fleet job was deleted");
            assertThat(purge.jobDeleted()).isTrue();
        });
        assertThat(gone.isEmpty()).isTrue();
        assertThat(mirror.copies()).isEmpty();
    }

    @Test
    void aDeletionNamingAnotherJobThanItsUidsPurgesNothingNowOrLater() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions forged = mirror.handle(JobEvent.create("/mallory", new JobRef("team-mallory", "anything", JOB.uid()), clock.instant(),
                new JobDeleted("mine now")));
        MirrorDecisions observedAgain = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        assertThat(forged.purges()).isEmpty();
        assertThat(observedAgain.purges()).isEmpty();
        assertThat(mirror.copies()).hasSize(1);
    }

    /** Someone deletes the job's copy on its member (kubectl on the member): a failure of the job, not a job that ended. */
    @Test
    void aCopyDeletedOnItsMemberNotByMusterFailsTheJobOverAfterTheToleration() {
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions gone = mirror.copyGone("gpu-a", JOB.uid());
        clock.advance(Duration.ofSeconds(29));
        MirrorDecisions withinToleration = mirror.tick();
        clock.advance(Duration.ofSeconds(2));
        MirrorDecisions failedOver = mirror.tick();

        assertThat(events(gone, FailoverTriggered.class)).isEmpty();
        assertThat(events(withinToleration, FailoverTriggered.class)).as("a stop placement is making may explain it yet").isEmpty();
        assertThat(events(failedOver, FailoverTriggered.class)).singleElement().satisfies(failover -> {
            assertThat(failover.fromCluster()).isEqualTo("gpu-a");
            assertThat(failover.reason()).isEqualTo("CopyDeleted");
            assertThat(failover.message()).isEqualTo("the job's copy on gpu-a was deleted there, not by Muster for 31s (toleration 30s)");
        });
        // Its reservations there go with the purge; once confirmed, nothing of the copy is left to judge.
        assertThat(failedOver.purges()).singleElement().extracting(Purge::copyUid).isEqualTo("copy-gpu-a-0");
        mirror.purgeConfirmed("gpu-a", JOB.uid(), "copy-gpu-a-0");
        clock.advance(Duration.ofMinutes(1));
        assertThat(mirror.tick().isEmpty()).isTrue();
    }

    @Test
    void aCopyPlacementStopsOrStatusSyncPurgesIsNoFailureWhicheverIsReadFirst() {
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));
        // Placement stopped it (a withdrawn admission): the copy is seen gone before placement's word is read.
        mirror.copyGone("gpu-a", JOB.uid());
        MirrorDecisions stopped = mirror.handle(JobEvent.create("/test", JOB, clock.instant(), new JobEvicted("gpu-a", "stopped on gpu-a")));
        clock.advance(Duration.ofMinutes(1));

        assertThat(stopped.isEmpty()).isTrue();
        assertThat(mirror.tick().isEmpty()).as("no failover of a job placement stopped").isTrue();

        // The fleet job deleted: status sync purges the copy itself, and its disappearance is what it asked for.
        mirror.copyObserved(copy("gpu-a", 1, SEED_FAILOVER, status("Created", "Running")));
        mirror.handle(JobEvent.create("/test", JOB, clock.instant(), new JobDeleted("deleted")));
        mirror.copyGone("gpu-a", JOB.uid());
        clock.advance(Duration.ofMinutes(1));
        assertThat(events(mirror.tick(), FailoverTriggered.class)).isEmpty();
    }

    /** A running copy of the job's admission made at {@code admittedAt}, placement generation 0. */
    private static MemberCopy admitted(String cluster, Instant admittedAt) {
        return new MemberCopy(cluster, JOB, "copy-" + cluster + "-" + admittedAt.getEpochSecond(), 0, SEED_FAILOVER, Optional.of(admittedAt),
                status("Created", "Running"));
    }

    /**
     * A preemption read before the copy it stops is first seen (a restarted status sync reading its backlog while it lists
     * the members): the copy is still the preempted one, and placement taking it away is no failure of the job.
     */
    @Test
    void aPreemptionReadBeforeItsCopyIsFirstSeenStillExplainsThatCopysLoss() {
        Instant admittedAt = clock.instant();
        mirror.memberObserved("gpu-b", true);
        clock.advance(Duration.ofSeconds(10));
        mirror.handle(JobEvent.create("/test", JOB, clock.instant(), new JobPreempted("team-a/reclaimer", "reclaimer-uid", "preempted to return borrowed capacity")));

        mirror.copyObserved(admitted("gpu-b", admittedAt));
        mirror.copyGone("gpu-b", JOB.uid());
        clock.advance(Duration.ofMinutes(1));

        assertThat(events(mirror.tick(), FailoverTriggered.class)).isEmpty();
    }

    /**
     * The job stopped on one member and placed again on another before status sync reads the stop: the copy gone from
     * the first member is not the job's, and the live copy of the next admission is never taken for one to purge (CI's
     * storm: the new copy was purged "as failed over", and the job waited for good).
     */
    @Test
    void theNextAdmissionsCopyIsTheJobsAndNeverPurgedWhenTheOldCopysLossIsNotExplainedYet() {
        Instant firstAdmission = clock.instant();
        mirror.memberObserved("gpu-a", true);
        mirror.memberObserved("gpu-b", true);
        mirror.copyObserved(admitted("gpu-b", firstAdmission));
        mirror.copyGone("gpu-b", JOB.uid());
        clock.advance(Duration.ofSeconds(5));

        MirrorDecisions placedAgain = mirror.copyObserved(admitted("gpu-a", clock.instant()));

        assertThat(placedAgain.purges()).noneMatch(purge -> purge.cluster().equals("gpu-a"));
        assertThat(placedAgain.statuses()).singleElement().extracting(MirrorDecisions.FleetStatus::cluster).isEqualTo("gpu-a");
        clock.advance(Duration.ofMinutes(1));
        MirrorDecisions later = mirror.tick();
        assertThat(events(later, FailoverTriggered.class)).isEmpty();
        assertThat(later.purges()).noneMatch(purge -> purge.cluster().equals("gpu-a"));
    }

    @Test
    void aCopyDeletedOnItsMemberOfAJobWithoutFailoverIsReportedOnce() {
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, Optional.empty(), status("Created", "Running")));

        MirrorDecisions reported = mirror.copyGone("gpu-a", JOB.uid()).and(mirror.tick());
        clock.advance(Duration.ofMinutes(1));

        assertThat(events(reported, MemberStatusChanged.class)).singleElement().satisfies(changed -> {
            assertThat(changed.reason()).isEqualTo("Unhealthy");
            assertThat(changed.message()).isEqualTo("the job's copy on gpu-a was deleted there, not by Muster; it stays where it is: its policy asks for no failover");
        });
        assertThat(mirror.tick().isEmpty()).isTrue();
    }

    /** Placement stops a preempted job's copy: its end there is neither a failure, a failover nor a purge of status sync's. */
    @Test
    void aPreemptedJobsCopyIsNoLongerItsStatusAndItsEndThereIsNoFailoverButALaterCopyIs() {
        mirror.memberObserved("gpu-a", true);
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions preempted = mirror.handle(JobEvent.create("/test", JOB, clock.instant(),
                new JobPreempted("team-b/guaranteed", "uid-b", "preempted to return borrowed capacity")));
        MirrorDecisions failing = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running", "Failed")));
        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofMinutes(2));
        MirrorDecisions later = mirror.tick();

        assertThat(preempted.isEmpty()).isTrue();
        assertThat(failing.isEmpty()).as("no JobFinished, no failover, no status").isTrue();
        assertThat(later.isEmpty()).isTrue();
        assertThat(mirror.mirroredStatus(JOB.uid()).isEmpty()).isTrue();

        mirror.memberObserved("gpu-a", true);
        mirror.copyGone("gpu-a", JOB.uid());
        MirrorDecisions readmitted = mirror.copyObserved(new MemberCopy("gpu-a", JOB, "copy-after-reclaim", 0, SEED_FAILOVER, Optional.empty(),
                status("Created", "Running")));
        assertThat(readmitted.statuses()).as("placed again after the reclaim: the new copy is the job's").hasSize(1);
    }

    /**
     * Status sync reads the preemption on the queue's topic and the copy on the member: after a restart or a broker
     * outage the preemption can be read after the job was admitted again and its new copy seen. That copy runs under
     * the later admission: it stays the job's status and its end finishes the job (the fault storm lost a job so).
     */
    @Test
    void aPreemptionReadAfterTheCopyOfALaterAdmissionLeavesThatCopyTheJobs() {
        Instant preemptedAt = clock.instant();
        clock.advance(Duration.ofSeconds(2));
        mirror.memberObserved("gpu-a", true);
        MemberCopy readmitted = new MemberCopy("gpu-a", JOB, "copy-of-second-admission", 0, SEED_FAILOVER, Optional.of(clock.instant()),
                status("Created", "Running"));
        mirror.copyObserved(readmitted);

        MirrorDecisions preempted = mirror.handle(JobEvent.create("/test", JOB, preemptedAt,
                new JobPreempted("team-b/guaranteed", "uid-b", "preempted to return borrowed capacity")));
        MirrorDecisions succeeded = mirror.copyObserved(new MemberCopy("gpu-a", JOB, "copy-of-second-admission", 0, SEED_FAILOVER,
                readmitted.admittedAt(), status("Created", "Running", "Succeeded")));

        assertThat(preempted.isEmpty()).isTrue();
        assertThat(mirror.mirroredStatus(JOB.uid()).statuses()).as("still the job's status").hasSize(1);
        assertThat(events(succeeded, JobFinished.class)).singleElement().extracting(JobFinished::outcome).isEqualTo("Succeeded");
    }

    /** A copy admitted before the preemption, or one that does not say when (made by an older placement), is stopped by it. */
    @Test
    void aPreemptionStopsTheCopiesOfEarlierAdmissionsAndThoseThatDoNotSay() {
        Instant admittedAt = clock.instant();
        clock.advance(Duration.ofSeconds(1));
        JobEvent preemption = JobEvent.create("/test", JOB, clock.instant(), new JobPreempted("team-b/guaranteed", "uid-b", "reclaimed"));

        assertThat(new MemberCopy("gpu-a", JOB, "c", 0, SEED_FAILOVER, Optional.of(admittedAt), status("Created")).stoppedBy(preemption.time())).isTrue();
        assertThat(new MemberCopy("gpu-a", JOB, "c", 0, SEED_FAILOVER, Optional.empty(), status("Created")).stoppedBy(preemption.time())).isTrue();
        assertThat(new MemberCopy("gpu-a", JOB, "c", 0, SEED_FAILOVER, Optional.of(clock.instant().plusMillis(1)), status("Created"))
                .stoppedBy(preemption.time())).isFalse();

        mirror.copyObserved(new MemberCopy("gpu-a", JOB, "c", 0, SEED_FAILOVER, Optional.of(admittedAt), status("Created", "Running")));
        mirror.handle(preemption);
        assertThat(mirror.mirroredStatus(JOB.uid()).isEmpty()).isTrue();
    }

    @Test
    void aSucceededJobIsFinishedOnce() {
        MirrorDecisions succeeded = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running", "Succeeded")));
        MirrorDecisions again = mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running", "Succeeded")));

        assertThat(events(succeeded, JobFinished.class)).singleElement().satisfies(finished -> {
            assertThat(finished.outcome()).isEqualTo("Succeeded");
            assertThat(finished.cluster()).isEqualTo("gpu-a");
        });
        assertThat(again.isEmpty()).isTrue();
    }

    @Test
    void aFailedJobWithoutFailoverIsFinishedAtOnceAndWithFailoverIsMovedAfterTheToleration() {
        JobMirror other = new JobMirror(new MirrorSettings(3, Duration.ofSeconds(10)), clock);
        assertThat(events(other.copyObserved(copy("gpu-a", 0, Optional.empty(), status("Created", "Failed"))), JobFinished.class))
                .singleElement().extracting(JobFinished::outcome).isEqualTo("Failed");

        assertThat(events(mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Failed"))), JobFinished.class)).isEmpty();
        clock.advance(Duration.ofSeconds(30));
        assertThat(events(mirror.tick(), FailoverTriggered.class)).singleElement().extracting(FailoverTriggered::message).asString()
                .startsWith("the job failed on gpu-a: PyTorchJob pytorch-test is failed.");
    }

    @Test
    void aJobThatFailedOverTheMostTimesAllowedFinishesFailed() {
        MirrorDecisions third = mirror.copyObserved(copy("gpu-c", 3, SEED_FAILOVER, status("Created", "Failed")));

        assertThat(events(third, JobFinished.class)).singleElement().satisfies(finished -> {
            assertThat(finished.outcome()).isEqualTo("Failed");
            assertThat(finished.message()).endsWith("(failed over 3 times, the most 3 allowed)");
        });
    }

    @Test
    void repeatedObservationsYieldTheSameEventIds() {
        JobMirror first = new JobMirror(new MirrorSettings(3, Duration.ofSeconds(10)), clock);
        JobMirror restarted = new JobMirror(new MirrorSettings(3, Duration.ofSeconds(10)), clock);
        MemberCopy running = copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running"));

        assertThat(first.copyObserved(running).events()).extracting(JobEvent::id)
                .isEqualTo(restarted.copyObserved(running).events().stream().map(JobEvent::id).toList());
    }

    @Test
    void aPurgeTheMemberCouldNotTakeIsAskedAgainAsSoonAsItIsBack() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));
        mirror.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(31));
        assertThat(mirror.tick().purges()).hasSize(1);
        clock.advance(Duration.ofSeconds(1));

        assertThat(mirror.memberObserved("gpu-a", true).purges()).singleElement().extracting(Purge::reason).isEqualTo("the job failed over");
    }

    @Test
    void aMemberThatLeftTheFleetHasItsJobsFailedOverAndItsCopiesForgotten() {
        mirror.copyObserved(copy("gpu-a", 0, SEED_FAILOVER, status("Created", "Running")));

        MirrorDecisions left = mirror.memberRemoved("gpu-a");
        clock.advance(Duration.ofSeconds(31));
        MirrorDecisions failedOver = mirror.tick();

        assertThat(events(left, MemberStatusChanged.class)).singleElement().extracting(MemberStatusChanged::state).isEqualTo("Unknown");
        assertThat(events(failedOver, FailoverTriggered.class)).singleElement().extracting(FailoverTriggered::reason).isEqualTo("MemberUnreachable");
        assertThat(failedOver.purges()).as("nothing to purge with: the member is not reachable by Muster any more").isEmpty();
        assertThat(mirror.copies()).isEmpty();
    }
}
