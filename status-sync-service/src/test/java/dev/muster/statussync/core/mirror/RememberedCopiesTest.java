package dev.muster.statussync.core.mirror;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.statussync.core.mirror.MirrorDecisions.Purge;
import dev.muster.testing.time.TestClock;

/**
 * A status sync that starts while a member does not answer judges that member's copies from what its predecessor
 * recorded: they fail over as they would have, with the same event ids, and nothing recorded is judged on a member that
 * answers until the member shows it.
 */
class RememberedCopiesTest {

    private static final JobRef JOB = new JobRef("default", "pytorch-test", "fleet-uid");
    private static final Optional<FailoverPolicy> SEED_FAILOVER = Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY));
    private static final MirrorSettings SETTINGS = new MirrorSettings(3, Duration.ofSeconds(10));

    private final TestClock clock = new TestClock();
    /** What the state topic holds, as a compacted topic keeps it. */
    private final Map<String, byte[]> stateTopic = new LinkedHashMap<>();

    private static MemberCopy running(String cluster, int generation) {
        List<JobCondition> conditions = List.of(new JobCondition("Created", "False", "PyTorchJobCreated", "created", "t0", "t0"),
                new JobCondition("Running", "True", "PyTorchJobRunning", "running", "t1", "t1"));
        return new MemberCopy(cluster, JOB, "copy-" + cluster + "-" + generation, generation, SEED_FAILOVER, Optional.of(Instant.EPOCH),
                new PyTorchJobStatus(conditions, null, "t0", null, null, null));
    }

    private static <T extends JobEventData> List<T> events(MirrorDecisions decisions, Class<T> type) {
        return decisions.events().stream().map(JobEvent::data).filter(type::isInstance).map(type::cast).toList();
    }

    private void compact(JobMirror mirror) {
        mirror.drainRecords().forEach((key, copy) -> {
            if (copy == null) {
                stateTopic.remove(key);
            } else {
                stateTopic.put(key, copy.encode());
            }
        });
    }

    /** A new instance after one that saw the copy on its member and recorded it. */
    private JobMirror restartedAfterSeeing(MemberCopy copy) {
        JobMirror before = new JobMirror(SETTINGS, clock);
        before.copyObserved(copy);
        compact(before);
        return restarted();
    }

    /** A new instance, given what the topic holds before it observes any member. */
    private JobMirror restarted() {
        JobMirror mirror = new JobMirror(SETTINGS, clock);
        stateTopic.values().forEach(value -> assertThat(mirror.remembered(RememberedCopy.decode(value)).isEmpty()).isTrue());
        return mirror;
    }

    @Test
    void aCopyOnAMemberThatDoesNotAnswerAtTheStartFailsOverAfterTheTolerationAsItWouldHaveBeforeTheRestart() {
        JobMirror before = new JobMirror(SETTINGS, clock);
        before.memberObserved("gpu-a", true);
        before.copyObserved(running("gpu-a", 0));
        compact(before);
        assertThat(stateTopic).containsOnlyKeys("gpu-a/fleet-uid");

        JobMirror after = restarted();
        MirrorDecisions cutOff = after.memberObserved("gpu-a", false);
        // The instance before, had it lived, would have seen the member cut off at the same moment.
        before.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(29));
        MirrorDecisions withinToleration = after.tick();
        clock.advance(Duration.ofSeconds(2));
        MirrorDecisions failedOver = after.tick();

        assertThat(events(cutOff, MemberStatusChanged.class)).singleElement().satisfies(changed -> {
            assertThat(changed.state()).isEqualTo("Unknown");
            assertThat(changed.message()).isEqualTo("member gpu-a does not answer, and has not since status sync started");
        });
        assertThat(withinToleration.isEmpty()).isTrue();
        assertThat(events(failedOver, FailoverTriggered.class)).singleElement().satisfies(failover -> {
            assertThat(failover.fromCluster()).isEqualTo("gpu-a");
            assertThat(failover.message()).isEqualTo("member gpu-a is unreachable for 31s (toleration 30s)");
        });
        assertThat(failedOver.purges()).singleElement().extracting(Purge::copyUid).isEqualTo("copy-gpu-a-0");
        // It would have decided this failover under the same id: one that did, then crashed, is not repeated.
        assertThat(before.tick().events()).extracting(JobEvent::id).containsExactlyElementsOf(failedOver.events().stream().map(JobEvent::id).toList());
    }

    @Test
    void aRememberedCopyOnAMemberThatAnswersIsNotJudgedUntilTheMemberIsListed() {
        JobMirror after = restartedAfterSeeing(running("gpu-a", 0));
        MirrorDecisions answers = after.memberObserved("gpu-a", true);
        clock.advance(Duration.ofSeconds(31));

        assertThat(answers.isEmpty()).as("no status or state made up for a copy not seen").isTrue();
        assertThat(after.tick().isEmpty()).isTrue();
        assertThat(after.copies()).isEmpty();
    }

    /**
     * The job's copy was deleted on its member while no instance watched (status sync down, {@code kubectl delete} there):
     * the next instance, finding it recorded and not listed, fails the job over as it would have seen it go, rather than
     * forget it and leave the job bound to nothing.
     */
    @Test
    void aRememberedCopyGoneFromItsMemberWhileNoInstanceWatchedFailsTheJobOverAfterTheToleration() {
        JobMirror after = restartedAfterSeeing(running("gpu-a", 0));
        after.memberObserved("gpu-a", true);
        MirrorDecisions listed = after.memberListed("gpu-a");
        clock.advance(Duration.ofSeconds(29));
        MirrorDecisions withinToleration = after.tick();
        clock.advance(Duration.ofSeconds(2));
        MirrorDecisions failedOver = after.tick();
        compact(after);

        assertThat(listed.events()).as("no state made up for a copy that is gone").isEmpty();
        assertThat(withinToleration.isEmpty()).isTrue();
        assertThat(events(failedOver, FailoverTriggered.class)).singleElement().satisfies(failover -> {
            assertThat(failover.reason()).isEqualTo("CopyDeleted");
            assertThat(failover.message()).isEqualTo("the job's copy on gpu-a was deleted there, not by Muster for 31s (toleration 30s)");
        });
        // Its purge finds nothing there, and the copy is forgotten then.
        Purge purge = failedOver.purges().get(0);
        after.purgeConfirmed(purge.cluster(), JOB.uid(), purge.copyUid());
        compact(after);
        assertThat(stateTopic).isEmpty();
    }

    @Test
    void aRememberedCopyGoneBecausePlacementStoppedTheJobOrItsJobWasDeletedIsForgotten() {
        JobMirror evictedFirst = restartedAfterSeeing(running("gpu-a", 0));
        evictedFirst.memberObserved("gpu-a", true);
        // The backlog read before the member is listed, or after: either way the stop explains the loss.
        evictedFirst.handle(JobEvent.create("/test", JOB, clock.instant(), new JobEvicted("gpu-a", "stopped on gpu-a")));
        evictedFirst.memberListed("gpu-a");

        JobMirror listedFirst = restarted();
        listedFirst.memberObserved("gpu-a", true);
        listedFirst.memberListed("gpu-a");
        listedFirst.handle(JobEvent.create("/test", JOB, clock.instant(), new JobWithdrawn("withdrawn")));

        JobMirror deletedFirst = restarted();
        deletedFirst.memberObserved("gpu-a", true);
        deletedFirst.handle(JobEvent.create("/test", JOB, clock.instant(), new JobDeleted("deleted from the fleet API")));
        deletedFirst.memberListed("gpu-a");

        clock.advance(Duration.ofSeconds(31));
        for (JobMirror mirror : List.of(evictedFirst, listedFirst, deletedFirst)) {
            assertThat(events(mirror.tick(), FailoverTriggered.class)).isEmpty();
            assertThat(mirror.drainRecords()).containsOnlyKeys("gpu-a/fleet-uid").containsValue(null);
        }
    }

    @Test
    void aRememberedCopySeenOnItsMemberIsJudgedAsSeenAndStaysRecorded() {
        JobMirror after = restartedAfterSeeing(running("gpu-a", 0));
        after.memberObserved("gpu-a", true);
        MirrorDecisions seen = after.copyObserved(running("gpu-a", 0));
        MirrorDecisions listed = after.memberListed("gpu-a");
        compact(after);

        assertThat(events(seen, MemberStatusChanged.class)).singleElement().extracting(MemberStatusChanged::state).isEqualTo("Running");
        assertThat(seen.statuses()).hasSize(1);
        assertThat(listed.isEmpty()).isTrue();
        assertThat(after.copies()).extracting(MemberCopy::copyUid).containsExactly("copy-gpu-a-0");
        assertThat(stateTopic).containsOnlyKeys("gpu-a/fleet-uid");
    }

    @Test
    void aCopyFailedOverFromIsRecordedSoAndPurgedByTheNextInstanceNeverTakenForTheJobsAgain() {
        JobMirror before = new JobMirror(SETTINGS, clock);
        before.copyObserved(running("gpu-a", 0));
        before.memberObserved("gpu-a", false);
        clock.advance(Duration.ofSeconds(31));
        assertThat(events(before.tick(), FailoverTriggered.class)).hasSize(1);
        compact(before);
        assertThat(RememberedCopy.decode(stateTopic.get("gpu-a/fleet-uid")).departed()).isTrue();

        // Crashed before the member took the purge; the next instance starts with the member back and the copy still there.
        JobMirror after = new JobMirror(SETTINGS, clock);
        MirrorDecisions restored = after.remembered(RememberedCopy.decode(stateTopic.get("gpu-a/fleet-uid")));
        after.memberObserved("gpu-a", true);
        MirrorDecisions seen = after.copyObserved(running("gpu-a", 0));
        after.memberListed("gpu-a");
        MirrorDecisions confirmed = after.purgeConfirmed("gpu-a", JOB.uid(), "copy-gpu-a-0");

        assertThat(restored.purges()).as("purged as soon as this instance starts").singleElement().extracting(Purge::reason)
                .isEqualTo("the job failed over");
        assertThat(seen.statuses()).as("not the job's status any more").isEmpty();
        assertThat(events(seen, MemberStatusChanged.class)).isEmpty();
        assertThat(confirmed.isEmpty()).isTrue();
        assertThat(after.copies()).as("seen on its member: the member's watch says when it is gone").hasSize(1);
    }

    @Test
    void aRememberedCopyFailedOverFromAndNoLongerOnItsMemberIsForgottenOnceItsPurgeIsConfirmed() {
        JobMirror after = new JobMirror(SETTINGS, clock);
        assertThat(after.remembered(new RememberedCopy("gpu-a", JOB, "copy-gpu-a-0", 0, SEED_FAILOVER, Optional.empty(), true)).purges())
                .hasSize(1);
        after.memberObserved("gpu-a", true);
        after.memberListed("gpu-a");

        after.purgeConfirmed("gpu-a", JOB.uid(), "copy-gpu-a-0");
        compact(after);
        clock.advance(Duration.ofSeconds(11));

        assertThat(after.tick().purges()).as("not asked again").isEmpty();
        assertThat(stateTopic).isEmpty();
    }

    @Test
    void aFinishedCopyIsNoLongerRecordedNorIsOneGoneFromItsMember() {
        JobMirror mirror = new JobMirror(SETTINGS, clock);
        mirror.copyObserved(running("gpu-a", 0));
        mirror.copyObserved(running("gpu-b", 1));
        compact(mirror);
        assertThat(stateTopic).containsOnlyKeys("gpu-a/fleet-uid", "gpu-b/fleet-uid");

        mirror.copyGone("gpu-a", JOB.uid());
        List<JobCondition> succeeded = List.of(new JobCondition("Succeeded", "True", "PyTorchJobSucceeded", "done", "t2", "t2"));
        mirror.copyObserved(new MemberCopy("gpu-b", JOB, "copy-gpu-b-1", 1, SEED_FAILOVER, Optional.empty(),
                new PyTorchJobStatus(succeeded, null, "t0", "t2", null, null)));
        compact(mirror);

        assertThat(stateTopic).isEmpty();
    }

    /** The job's copy, ended on its member. */
    private static MemberCopy succeeded(String cluster, int generation) {
        List<JobCondition> conditions = List.of(new JobCondition("Running", "False", "PyTorchJobRunning", "running", "t1", "t2"),
                new JobCondition("Succeeded", "True", "PyTorchJobSucceeded", "done", "t2", "t2"));
        return new MemberCopy(cluster, JOB, "copy-" + cluster + "-" + generation, generation, SEED_FAILOVER, Optional.of(Instant.EPOCH),
                new PyTorchJobStatus(conditions, null, "t0", "t2", null, null));
    }

    /** An instance that failed the copy over and died as the broker took the event, before its record of the copy went out. */
    private JobEvent failedOverThenDied(MemberCopy copy) {
        JobMirror before = new JobMirror(SETTINGS, clock);
        before.memberObserved(copy.cluster(), true);
        before.copyObserved(copy);
        compact(before);
        before.memberObserved(copy.cluster(), false);
        clock.advance(Duration.ofSeconds(31));
        List<JobEvent> failovers = before.tick().events().stream().filter(event -> event.data() instanceof FailoverTriggered).toList();
        assertThat(failovers).hasSize(1);
        assertThat(before.drainRecords()).as("the record it never wrote").isNotEmpty();
        return failovers.get(0);
    }

    @Test
    void aCopyFailedOverByAnInstanceThatDiedBeforeRecordingItIsLeftByTheNextOneWhichNeverReportsItsEndAsTheJobs() {
        JobEvent failover = failedOverThenDied(running("gpu-a", 0));

        JobMirror after = restarted();
        after.memberObserved("gpu-a", false);
        MirrorDecisions read = after.handle(failover);
        compact(after);
        // The job runs on gpu-b meanwhile; gpu-a answers again, the copy there having run to its end while cut off.
        after.memberObserved("gpu-a", true);
        MirrorDecisions back = after.copyObserved(succeeded("gpu-a", 0));

        assertThat(read.purges()).as("purged as its purge mode says, once its member answers")
                .singleElement().extracting(Purge::copyUid).isEqualTo("copy-gpu-a-0");
        assertThat(events(read, FailoverTriggered.class)).as("not decided twice").isEmpty();
        assertThat(events(back, JobFinished.class)).as("the end of a copy the job left is not the job's").isEmpty();
        assertThat(events(back, MemberStatusChanged.class)).isEmpty();
        assertThat(back.statuses()).as("nor is its status the fleet job's").isEmpty();
        assertThat(RememberedCopy.decode(stateTopic.get("gpu-a/fleet-uid")).departed()).as("recorded as left now").isTrue();
    }

    @Test
    void aFailoverReadBeforeItsCopyIsSeenStillAppliesToIt() {
        JobEvent failover = failedOverThenDied(running("gpu-a", 0));
        stateTopic.clear();

        JobMirror after = restarted();
        assertThat(after.handle(failover).isEmpty()).isTrue();
        MirrorDecisions seen = after.copyObserved(succeeded("gpu-a", 0));
        MirrorDecisions otherCopy = after.copyObserved(succeeded("gpu-a", 1));

        assertThat(events(seen, JobFinished.class)).isEmpty();
        assertThat(seen.purges()).singleElement().extracting(Purge::copyUid).isEqualTo("copy-gpu-a-0");
        assertThat(events(otherCopy, JobFinished.class)).as("a later copy on the same member is the job's").singleElement()
                .extracting(JobFinished::outcome).isEqualTo("Succeeded");
    }

    @Test
    void aRecordIsReadBackAsWrittenAndOneThatIsNotARecordIsRefused() {
        RememberedCopy copy = new RememberedCopy("gpu-a", JOB, "copy-gpu-a-0", 2, Optional.of(new FailoverPolicy(Duration.ofSeconds(45),
                PurgeMode.GRACIOUSLY)), Optional.of(Instant.parse("2026-12-05T10:00:00Z")), true);
        RememberedCopy noFailover = new RememberedCopy("gpu-b", JOB, "copy-gpu-b-1", 1, Optional.empty(), Optional.empty(), false);

        assertThat(RememberedCopy.decode(copy.encode())).isEqualTo(copy);
        assertThat(RememberedCopy.decode(noFailover.encode())).isEqualTo(noFailover);
        assertThatThrownBy(() -> RememberedCopy.decode("{\"cluster\":\"gpu-a\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cluster, job and copy UID");
        assertThatThrownBy(() -> RememberedCopy.decode("not json".getBytes(StandardCharsets.UTF_8))).isInstanceOf(IllegalArgumentException.class);
    }
}
