package dev.muster.statussync.core.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.ConfigAccepted;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.job.ReplicaType;
import dev.muster.model.quota.QueueNames;
import dev.muster.statussync.core.fleet.FleetWrite.DeleteQueueUnit;
import dev.muster.statussync.core.fleet.FleetWrite.PutQueueUnit;
import dev.muster.statussync.core.fleet.FleetWrite.ConfigOutcome;
import dev.muster.statussync.core.fleet.FleetWrite.PutQueues;
import dev.muster.statussync.core.fleet.FleetWrite.RecordEvent;
import dev.muster.statussync.core.fleet.FleetWrite.SetCondition;
import dev.muster.testing.seed.Seed;

class FleetProjectionTest {

    private static final JobRef JOB = new JobRef("default", "pytorch-test", "fleet-uid");
    private static final PyTorchJob MANIFEST = Seed.job("default", "pytorch-test");
    private static final String CHILD_QUEUE = QueueNames.of(List.of("root", "child-2"));

    private final FleetProjection projection = new FleetProjection();
    private static final ConfigRef TREE = new ConfigRef("ElasticQuotaTree", "kube-system", "elasticquotatree");
    /** What the queue says once it accepted the seed's tree. */
    private static final dev.muster.model.event.ConfigEvent TREE_ACCEPTED = new dev.muster.model.event.ConfigEvent("accepted", "/test",
            Instant.now(), new ConfigAccepted(TREE, false, QueueNames.ofTree(Seed.tree().getSpec().root())));

    private static JobEvent event(JobEventData data) {
        return JobEvent.create("/test", JOB, Instant.parse("2026-11-29T17:00:00Z"), data);
    }

    private static JobQueued queued(String reason, int position) {
        return new JobQueued(CHILD_QUEUE, reason, "root/child-2: kube-queue/max-jobs 1/1 in use", position, JobDemand.of(MANIFEST).total());
    }

    private static <T extends FleetWrite> List<T> writes(List<FleetWrite> writes, Class<T> type) {
        return writes.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Test
    void theTreeGivesOneQueuePerQuotaNodeAndItsDeletionNone() {
        List<FleetWrite> applied = projection.handle(TREE_ACCEPTED);
        List<FleetWrite> deleted = projection.handle(new dev.muster.model.event.ConfigEvent("id", "/test", Instant.now(),
                new ConfigAccepted(TREE, true, Map.of())));

        assertThat(writes(applied, PutQueues.class)).singleElement().satisfies(queues -> assertThat(queues.nodeByQueue())
                .containsEntry(QueueNames.of(List.of("root")), "root").containsEntry(CHILD_QUEUE, "child-2"));
        assertThat(writes(applied, ConfigOutcome.class)).singleElement().satisfies(outcome -> {
            assertThat(outcome.accepted()).isTrue();
            assertThat(outcome.object()).isEqualTo(TREE);
        });
        assertThat(writes(deleted, PutQueues.class)).singleElement().satisfies(queues -> assertThat(queues.order()).isEmpty());
        assertThat(writes(deleted, ConfigOutcome.class)).as("a deleted tree has nothing to show it on").isEmpty();
    }

    @Test
    void aRefusedTreeSaysWhyOnItselfAndLeavesTheQueuesOfTheTreeInForce() {
        projection.handle(TREE_ACCEPTED);

        List<FleetWrite> refused = projection.handle(new dev.muster.model.event.ConfigEvent("id-2", "/test", Instant.now(),
                new ConfigRejected(TREE, List.of("spec.root.name: is required"), "ElasticQuotaTree kube-system/elasticquotatree as last accepted")));

        assertThat(writes(refused, PutQueues.class)).isEmpty();
        assertThat(writes(refused, ConfigOutcome.class)).singleElement().satisfies(outcome -> {
            assertThat(outcome.accepted()).isFalse();
            assertThat(outcome.reason()).isEqualTo("Refused");
            assertThat(outcome.message()).isEqualTo("refused: spec.root.name: is required. In force instead: ElasticQuotaTree"
                    + " kube-system/elasticquotatree as last accepted");
        });
    }

    @Test
    void aQueuedJobIsQueuingWithItsReasonAndHasAnEnqueuedUnitAndOneEventPerReason() {
        List<FleetWrite> first = projection.handle(event(queued("QuotaExceeded", 2)));
        List<FleetWrite> moved = projection.handle(event(queued("QuotaExceeded", 1)));

        assertThat(writes(first, RecordEvent.class)).singleElement().satisfies(recorded -> {
            assertThat(recorded.reason()).isEqualTo("Queued");
            assertThat(recorded.message()).isEqualTo("in " + CHILD_QUEUE + " at position 2 (QuotaExceeded): root/child-2: kube-queue/max-jobs 1/1 in use");
        });
        assertThat(writes(first, SetCondition.class)).singleElement().satisfies(condition -> {
            assertThat(condition.type()).isEqualTo("Queuing");
            assertThat(condition.reason()).isEqualTo("QuotaExceeded");
        });
        assertThat(writes(moved, RecordEvent.class)).as("a new position is no new event").isEmpty();
        assertThat(writes(moved, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.phase()).isEqualTo("Enqueued");
            assertThat(unit.queue()).isEqualTo(CHILD_QUEUE);
            assertThat(unit.message()).endsWith("(position 1)");
        });
    }

    @Test
    void aWaitingJobsEstimateIsInItsConditionAndOnItsUnitAndMakesNoNewEvent() {
        projection.handle(event(queued("QuotaExceeded", 1)));
        java.time.Instant estimate = java.time.Instant.parse("2026-12-04T14:32:27Z");
        List<FleetWrite> told = projection.handle(event(queued("QuotaExceeded", 1).withEstimatedStart(estimate)));

        assertThat(writes(told, RecordEvent.class)).as("the same wait: no new event").isEmpty();
        assertThat(writes(told, SetCondition.class)).singleElement().satisfies(condition -> assertThat(condition.message()).isEqualTo(
                "root/child-2: kube-queue/max-jobs 1/1 in use; expected to start at about 2026-12-04T14:32:00Z"
                        + " (the queue's estimate, were nothing new to arrive)"));
        assertThat(writes(told, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.estimatedStart()).isEqualTo(estimate);
            assertThat(unit.message()).as("the unit has a field of its own").isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use (position 1)");
        });
    }

    @Test
    void aJobAdmittedUnderATreeThatMovedItsNamespaceShowsItsNewQueueBeforeTheTreesAcceptanceIsRead() {
        projection.handle(TREE_ACCEPTED);
        projection.handle(event(queued("QuotaExceeded", 1)));
        String newQueue = QueueNames.of(List.of("root", "child-3"));

        List<FleetWrite> admitted = projection.handle(event(new JobAdmitted(MANIFEST, Seed.queuePolicy("default"), "child-3",
                JobDemand.of(MANIFEST).total(), 0, newQueue)));

        assertThat(writes(admitted, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.phase()).isEqualTo("Dequeued");
            assertThat(unit.queue()).as("the queue the admission names, which the tree in force lacks").isEqualTo(newQueue);
        });
    }

    @Test
    void anAdmittedJobIsDequeuedAndPlacedThenShowsItsMemberOnly() {
        projection.handle(TREE_ACCEPTED);
        List<FleetWrite> admitted = projection.handle(event(new JobAdmitted(MANIFEST, Seed.queuePolicy("default"), "child-2",
                JobDemand.of(MANIFEST).total())));
        List<FleetWrite> failed = projection.handle(event(new PlacementFailed(Map.of("cluster-b", "no node has 2 cpu free",
                "cluster-a", "excluded"), "no member cluster can take the whole gang now")));
        List<FleetWrite> bound = projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1, ReplicaType.WORKER, 2))));
        List<FleetWrite> late = projection.handle(event(new PlacementFailed(Map.of(), "late")));

        assertThat(writes(admitted, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.phase()).isEqualTo("Dequeued");
            assertThat(unit.queue()).isEqualTo(CHILD_QUEUE);
        });
        assertThat(writes(admitted, SetCondition.class)).singleElement().extracting(SetCondition::reason).isEqualTo("Placing");
        assertThat(writes(failed, RecordEvent.class)).singleElement().satisfies(recorded -> {
            assertThat(recorded.type()).isEqualTo("Warning");
            assertThat(recorded.message()).isEqualTo("no member cluster can take the whole gang now: cluster-a: excluded; cluster-b: no node has 2 cpu free");
        });
        assertThat(writes(bound, RecordEvent.class)).singleElement().satisfies(recorded -> {
            assertThat(recorded.reason()).isEqualTo("ScheduleBindingSucceed");
            assertThat(recorded.component()).isEqualTo("default-scheduler");
            assertThat(recorded.message()).isEqualTo("Binding has been scheduled successfully. Result: {cluster-a:0,[{master 1} {worker 2}]}");
        });
        assertThat(writes(late, SetCondition.class)).as("a bound job's status is its member copy's").isEmpty();
        assertThat(writes(bound, PutQueueUnit.class)).as("Dequeued since its admission: no change of phase, no write").isEmpty();
    }

    /**
     * A job admitted at once and run to its end is told by one Event, its binding: its admission is in that Event and
     * its way through the member's states in its status. A job that waited is told when it was queued and admitted; a
     * member's trouble is told as a Warning.
     */
    @Test
    void onlyAWaitItsEndAndTroubleAreToldBesidesTheBinding() {
        JobRef waited = new JobRef("default", "waited", "waited-uid");
        List<FleetWrite> atOnce = new ArrayList<>();
        atOnce.addAll(projection.handle(event(new JobAdmitted(MANIFEST, null, "root/child-2", JobDemand.of(MANIFEST).total()))));
        atOnce.addAll(projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1)))));
        for (String state : List.of("Pending", "Created", "Running", "Succeeded")) {
            atOnce.addAll(projection.handle(event(new dev.muster.model.event.MemberStatusChanged("cluster-a", state, state, "the job is " + state, null))));
        }
        List<FleetWrite> restarting = projection.handle(event(new dev.muster.model.event.MemberStatusChanged("cluster-a", "Restarting",
                "Restarting", "a pod failed", null)));
        List<FleetWrite> afterAWait = new ArrayList<>();
        afterAWait.addAll(projection.handle(JobEvent.create("/queue", waited, Instant.now(), queued("QuotaExceeded", 1))));
        afterAWait.addAll(projection.handle(JobEvent.create("/queue", waited, Instant.now(), new JobAdmitted(MANIFEST, null, "root/child-2",
                JobDemand.of(MANIFEST).total()))));

        assertThat(writes(atOnce, RecordEvent.class)).extracting(RecordEvent::reason).containsExactly("ScheduleBindingSucceed");
        assertThat(writes(restarting, RecordEvent.class)).singleElement().satisfies(recorded -> {
            assertThat(recorded.type()).isEqualTo("Warning");
            assertThat(recorded.reason()).isEqualTo("Restarting");
        });
        assertThat(writes(afterAWait, RecordEvent.class)).extracting(RecordEvent::reason).containsExactly("Queued", "Admitted");
    }

    @Test
    void aFailoverShowsTheJobWaitingAgainAndTheEndOfTheJobClosesItsUnit() {
        projection.handle(event(queued("QuotaExceeded", 1)));
        projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));

        List<FleetWrite> failover = projection.handle(event(new FailoverTriggered("cluster-a", "MemberUnreachable",
                "member cluster-a is unreachable for 31s (toleration 30s)", "Immediately")));
        List<FleetWrite> finished = projection.handle(event(new JobFinished("cluster-b", "Succeeded", "done")));
        List<FleetWrite> deleted = projection.handle(event(new JobDeleted("deleted from the fleet API")));

        assertThat(writes(failover, RecordEvent.class)).singleElement().extracting(RecordEvent::reason).isEqualTo("FailoverTriggered");
        assertThat(writes(failover, SetCondition.class)).singleElement().extracting(SetCondition::reason).isEqualTo("FailingOver");
        assertThat(writes(finished, PutQueueUnit.class)).singleElement().extracting(PutQueueUnit::phase).isEqualTo("Succeed");
        assertThat(writes(deleted, DeleteQueueUnit.class)).as("a finished job's unit is its record until the job is deleted").hasSize(1);
    }

    /** The member's word, the queueing and the binding come on three topics, read in any order: a Running unit stays Running. */
    @Test
    void aQueueingOrBindingReadAfterTheMemberSaidRunningLeavesTheUnitRunning() {
        List<FleetWrite> runningFirst = projection.handle(event(new dev.muster.model.event.MemberStatusChanged("cluster-a", "Running", "Running",
                "all pods running", null)));
        List<FleetWrite> queuedLate = projection.handle(event(queued("QuotaExceeded", 1)));
        List<FleetWrite> running = projection.handle(event(new dev.muster.model.event.MemberStatusChanged("cluster-a", "Running", "Running",
                "all pods running", null)));
        List<FleetWrite> bound = projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));
        projection.handle(event(new FailoverTriggered("cluster-a", "MemberUnreachable", "member cluster-a is unreachable", "Immediately")));
        List<FleetWrite> boundAgain = projection.handle(event(JobBound.of("cluster-b", null, Map.of(ReplicaType.MASTER, 1))));

        assertThat(writes(runningFirst, PutQueueUnit.class)).as("no unit known yet").isEmpty();
        assertThat(writes(queuedLate, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.phase()).isEqualTo("Running");
            assertThat(unit.message()).isEqualTo("running on member cluster cluster-a");
        });
        assertThat(writes(running, PutQueueUnit.class)).as("written on a change of phase only").isEmpty();
        assertThat(writes(bound, PutQueueUnit.class)).as("no step back to Dequeued").isEmpty();
        assertThat(writes(bound, RecordEvent.class)).extracting(RecordEvent::reason).containsExactly("ScheduleBindingSucceed");
        assertThat(writes(boundAgain, PutQueueUnit.class)).as("bound anew after a failover").singleElement()
                .extracting(PutQueueUnit::phase).isEqualTo("Dequeued");
    }

    /** A reclaim as the fleet shows it: an Event on each job naming the other, the victim Queuing again at once. */
    @Test
    void aPreemptedJobIsQueuingAgainAndBothJobsAreToldOfTheOther() {
        projection.handle(event(queued("QuotaExceeded", 1)));
        projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));

        List<FleetWrite> preempted = projection.handle(event(new JobPreempted("team-b/guaranteed", "uid-b",
                "preempted to return borrowed capacity to team-b/guaranteed, which is within the guaranteed min of root/team-b")));
        List<FleetWrite> stopped = projection.handle(event(new JobEvicted("cluster-a", "stopped on member cluster cluster-a for team-b/guaranteed")));

        assertThat(writes(preempted, RecordEvent.class)).extracting(write -> write.job().subject() + " " + write.reason() + ": " + write.message())
                .containsExactly("default/pytorch-test Preempted: preempted for team-b/guaranteed: preempted to return borrowed capacity to "
                                + "team-b/guaranteed, which is within the guaranteed min of root/team-b",
                        "team-b/guaranteed Reclaiming: preempted default/pytorch-test to take back borrowed capacity; admitted once it has "
                                + "stopped on its member");
        assertThat(writes(preempted, SetCondition.class)).singleElement().satisfies(condition -> {
            assertThat(condition.type()).isEqualTo("Queuing");
            assertThat(condition.reason()).isEqualTo("Preempted");
        });
        assertThat(writes(stopped, RecordEvent.class)).singleElement().satisfies(write -> {
            assertThat(write.reason()).isEqualTo("Stopped");
            assertThat(write.message()).isEqualTo("stopped on member cluster cluster-a for team-b/guaranteed; it waits in its queue again");
        });
        assertThat(writes(projection.handle(event(queued("HeldForReclaim", 1))), SetCondition.class)).as("queued again, as the queue says")
                .singleElement().extracting(SetCondition::reason).isEqualTo("HeldForReclaim");
    }

    /**
     * Read after a restart, the queue's backlog can come after the binding and the member's word: the job was admitted,
     * preempted and queued again before its later admission was bound. That history is told, never shown over the
     * running job; a preemption after the binding still is.
     */
    @Test
    void theQueuesWordOlderThanTheBindingIsHistoryNotTheJobsState() {
        Instant bindingTime = Instant.parse("2026-12-02T21:46:49Z");
        projection.handle(TREE_ACCEPTED);
        projection.handle(JobEvent.create("/placement", JOB, bindingTime, JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));
        projection.handle(JobEvent.create("/status-sync", JOB, bindingTime, new dev.muster.model.event.MemberStatusChanged("cluster-a", "Running",
                "Running", "all pods running", null)));

        List<FleetWrite> backlog = new ArrayList<>();
        backlog.addAll(projection.handle(JobEvent.create("/queue", JOB, bindingTime.minusSeconds(14), new JobAdmitted(MANIFEST, null,
                "root/child-2", JobDemand.of(MANIFEST).total()))));
        backlog.addAll(projection.handle(JobEvent.create("/queue", JOB, bindingTime.minusSeconds(14), new JobPreempted("team-a/storm-17",
                "uid-a", "preempted to return borrowed capacity to team-a/storm-17"))));
        backlog.addAll(projection.handle(JobEvent.create("/queue", JOB, bindingTime.minusSeconds(13), queued("Reclaiming", 2))));
        backlog.addAll(projection.handle(JobEvent.create("/queue", JOB, bindingTime.minusSeconds(12), new JobAdmitted(MANIFEST, null,
                "root/child-2", JobDemand.of(MANIFEST).total()))));
        List<FleetWrite> preemptedLater = projection.handle(JobEvent.create("/queue", JOB, bindingTime.plusSeconds(30),
                new JobPreempted("team-a/storm-20", "uid-c", "preempted to return borrowed capacity to team-a/storm-20")));

        assertThat(writes(backlog, SetCondition.class)).as("nothing shown over the running job").isEmpty();
        assertThat(writes(backlog, PutQueueUnit.class)).as("its unit stays Running").extracting(PutQueueUnit::phase).containsOnly("Running");
        assertThat(writes(backlog, RecordEvent.class)).extracting(RecordEvent::reason).contains("Admitted", "Preempted", "Queued");
        assertThat(writes(backlog, RecordEvent.class)).filteredOn(write -> write.reason().equals("Preempted")).singleElement()
                .extracting(RecordEvent::message).asString().endsWith("an earlier admission was stopped, the job runs on under a later one");
        assertThat(writes(preemptedLater, SetCondition.class)).singleElement().satisfies(condition -> {
            assertThat(condition.type()).isEqualTo("Queuing");
            assertThat(condition.reason()).isEqualTo("Preempted");
        });
    }

    @Test
    void aJobPreemptedAsItEndedGoesOnShowingItsEnd() {
        projection.handle(event(queued("QuotaExceeded", 1)));
        projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));
        projection.handle(event(new JobFinished("cluster-a", "Succeeded", "PyTorchJob pytorch-test is successfully completed.")));

        List<FleetWrite> preempted = projection.handle(event(new JobPreempted("team-b/guaranteed", "uid-b",
                "preempted to return borrowed capacity to team-b/guaranteed, which is within the guaranteed min of root/team-b")));

        assertThat(writes(preempted, SetCondition.class)).as("no wait over its end").isEmpty();
        assertThat(writes(preempted, PutQueueUnit.class)).isEmpty();
        assertThat(writes(preempted, RecordEvent.class)).singleElement().extracting(RecordEvent::message).asString()
                .endsWith("; it had finished already, so nothing was stopped");
    }

    /** The storm's case: a failover's admission that placement could not place, read after the copy left behind ended. */
    @Test
    void anAdmissionAndAPlacementFailureReadAfterTheEndLeaveTheEndShown() {
        projection.handle(TREE_ACCEPTED);
        projection.handle(event(JobBound.of("cluster-a", null, Map.of(ReplicaType.MASTER, 1))));
        projection.handle(event(new FailoverTriggered("cluster-a", "MemberUnreachable", "member cluster-a is unreachable for 30s", "Immediately")));
        projection.handle(event(new JobFinished("cluster-a", "Succeeded", "PyTorchJob pytorch-test is successfully completed.")));

        List<FleetWrite> admitted = projection.handle(event(new JobAdmitted(MANIFEST, Seed.queuePolicy("default"), "child-2",
                JobDemand.of(MANIFEST).total())));
        List<FleetWrite> failed = projection.handle(event(new PlacementFailed(Map.of(), "no member cluster has reported its inventory")));

        assertThat(writes(admitted, SetCondition.class)).as("no wait over its end").isEmpty();
        assertThat(writes(admitted, PutQueueUnit.class)).as("its unit stays Succeed").isEmpty();
        assertThat(writes(failed, SetCondition.class)).as("no wait over its end").isEmpty();
        assertThat(writes(failed, RecordEvent.class)).as("told as history").singleElement().extracting(RecordEvent::reason).isEqualTo("PlacementFailed");
    }

    @Test
    void aWaitMayReplaceAnyStatusButASuccessOrOneThatBeganAfterItWasDecided() {
        Instant decided = Instant.parse("2026-12-05T10:00:00Z");
        SetCondition waiting = new SetCondition(JOB, "Queuing", "NoClusterFits", "no member cluster fits", decided);
        String before = "2026-12-05T09:59:59Z";
        String after = "2026-12-05T10:00:01Z";

        assertThat(waiting.mayReplace(null)).isTrue();
        for (String shown : List.of("Created", "Running", "Restarting", "Failed", "Queuing")) {
            assertThat(waiting.mayReplace(shown(shown, before))).as("over " + shown + " shown since before").isTrue();
            assertThat(waiting.mayReplace(shown(shown, after))).as("over " + shown + " shown since after").isFalse();
        }
        assertThat(waiting.mayReplace(shown("Running", decided.toString()))).as("over what began as it was decided").isTrue();
        assertThat(waiting.mayReplace(shown("Running", "not a time"))).as("over a time it cannot read").isTrue();
        assertThat(waiting.mayReplace(shown("Succeeded", before))).isFalse();
    }

    private static PyTorchJobStatus shown(String type, String since) {
        return new PyTorchJobStatus(List.of(new JobCondition(type, "True", "PyTorchJob" + type, type, since, since)), null, null, null, since, null);
    }

    @Test
    void aQueueUnitCarriesThePriorityItsJobIsQueuedBy() {
        List<FleetWrite> queued = projection.handle(event(new JobQueued(CHILD_QUEUE, "QuotaExceeded", "root/child-2: full", 1,
                JobDemand.of(MANIFEST).total(), 1000, "high")));

        assertThat(writes(queued, PutQueueUnit.class)).singleElement().satisfies(unit -> {
            assertThat(unit.priority()).isEqualTo(1000);
            assertThat(unit.priorityClassName()).isEqualTo("high");
        });
    }

    @Test
    void aDeletedQueuedJobHasItsUnitDeleted() {
        projection.handle(event(queued("QuotaExceeded", 1)));

        assertThat(writes(projection.handle(event(new JobDeleted(null))), DeleteQueueUnit.class)).hasSize(1);
    }

    /**
     * Deleted on either path, a job's Kafka-path object goes: one deleted through the fleet API may have been written
     * again from its submission by a process before this one (which this one cannot know), and the write removes only an
     * object of the Kafka path standing for this job's events, never one applied there.
     */
    @Test
    void aJobDeletedOnEitherPathHasItsKafkaPathObjectDeletedWhoeverWroteIt() {
        List<FleetWrite> viaKafka = projection.handle(JobEvent.create("/producer", JOB, Instant.EPOCH, new JobDeleted("done with it")));
        List<FleetWrite> viaKubectl = projection.handle(JobEvent.create(FleetJobs.INGRESS_SOURCE, JOB, Instant.EPOCH, new JobDeleted("deleted")));

        assertThat(writes(viaKafka, FleetWrite.DeleteKafkaJob.class)).hasSize(1);
        assertThat(writes(viaKubectl, FleetWrite.DeleteKafkaJob.class)).hasSize(1);
    }

    /**
     * A replay after a restart whose commit was lost writes a Kafka-path job's fleet object again from its submission;
     * the deletion read next removes it, though the user deleted it through the fleet API (where it is gone already).
     */
    @Test
    void aKafkaPathJobWhoseFleetObjectWasDeletedThroughTheFleetApiHasTheObjectWrittenOnAReplayDeletedAgain() {
        projection.handle(JobEvent.create("/producer", JOB, Instant.EPOCH, new JobSubmitted(MANIFEST)));

        List<FleetWrite> viaKubectl = projection.handle(JobEvent.create(FleetJobs.INGRESS_SOURCE, JOB, Instant.EPOCH, new JobDeleted("deleted")));

        assertThat(writes(viaKubectl, FleetWrite.DeleteKafkaJob.class)).singleElement().extracting(FleetWrite.DeleteKafkaJob::job).isEqualTo(JOB);
    }

    @Test
    void onlyAJobSubmittedOnTheKafkaPathGetsAFleetObjectWritten() {
        List<FleetWrite> viaKafka = projection.handle(JobEvent.create("/producer", JOB, Instant.EPOCH, new JobSubmitted(MANIFEST)));
        List<FleetWrite> viaKubectl = projection.handle(JobEvent.create(FleetJobs.INGRESS_SOURCE, JOB, Instant.EPOCH, new JobSubmitted(MANIFEST)));

        assertThat(writes(viaKafka, FleetWrite.CreateJob.class)).singleElement().satisfies(create -> {
            assertThat(FleetJobs.isKafkaSubmission(create.manifest())).isTrue();
            assertThat(FleetJobs.eventUid(create.manifest())).isEqualTo(JOB.uid());
        });
        assertThat(viaKubectl).isEmpty();
    }

    /** The queue's word read before the submission (a backlog read across topics): the unit follows the fleet object's creation. */
    @Test
    void aKafkaJobQueuedBeforeItsSubmissionIsReadHasItsUnitWrittenAfterItsFleetObject() {
        projection.handle(JobEvent.create("/producer", JOB, Instant.EPOCH, queued("QuotaExceeded", 3)));

        List<FleetWrite> submitted = projection.handle(JobEvent.create("/producer", JOB, Instant.EPOCH, new JobSubmitted(MANIFEST)));

        assertThat(submitted).hasSize(2);
        assertThat(submitted.get(0)).isInstanceOf(FleetWrite.CreateJob.class);
        assertThat(submitted.get(1)).isInstanceOfSatisfying(PutQueueUnit.class, unit -> {
            assertThat(unit.phase()).isEqualTo("Enqueued");
            assertThat(unit.message()).endsWith("(position 3)");
        });
    }
}
