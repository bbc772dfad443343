package dev.muster.queue.core.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.ConfigAccepted;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.testing.seed.Seed;

class FleetQueueTest {

    private static final Instant T0 = Instant.parse("2026-11-29T17:00:00Z");
    private static final Clock CLOCK = Clock.fixed(T0, ZoneOffset.UTC);
    private static final ResourceList SEED_DEMAND = ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi"));

    private final FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), CLOCK);

    static String seed(String name) {
        return Seed.text(name);
    }

    static ConfigEvent seedTree() {
        return ConfigEvent.create("/test", T0, new QuotaTreeApplied(Manifests.read(seed("elastic-quota-tree.yaml"), ElasticQuotaTree.class)));
    }

    static ConfigEvent policy(String file) {
        return ConfigEvent.create("/test", T0, new PolicyApplied(Manifests.read(seed(file), PropagationPolicy.class)));
    }

    static JobEvent submitted(String name, int second) {
        PyTorchJob job = Manifests.read(seed("pytorch-job.yaml"), PyTorchJob.class);
        job.getMetadata().setName(name);
        return JobEvent.create("/test", new JobRef("default", name, name + "-uid"), T0.plusSeconds(second), new JobSubmitted(job));
    }

    static JobEvent finished(String name) {
        return JobEvent.create("/test", new JobRef("default", name, name + "-uid"), T0, new JobFinished("cluster-a", "Succeeded", null));
    }

    @Test
    void theSeedWalkthroughOneJobRunsTheSecondWaitsThenRuns() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));

        List<JobEvent> first = jobEvents(queue.handle(submitted("pytorch-test", 1)));
        List<JobEvent> second = jobEvents(queue.handle(submitted("pytorch-test-2", 2)));
        List<JobEvent> afterFinish = jobEvents(queue.handle(finished("pytorch-test")));

        assertThat(first).singleElement().satisfies(event -> {
            assertThat(event.job().name()).isEqualTo("pytorch-test");
            assertThat(event.data()).isInstanceOfSatisfying(JobAdmitted.class, admitted -> {
                assertThat(admitted.quotaLeaf()).isEqualTo("child-2");
                assertThat(admitted.queue()).as("the leaf's queue").isEqualTo(dev.muster.model.quota.QueueNames.of(List.of("root", "child-2")));
                assertThat(admitted.policy().getMetadata().getName()).isEqualTo("example-policy");
                assertThat(admitted.job().getMetadata().getName()).isEqualTo("pytorch-test");
                assertThat(admitted.demand()).isEqualTo(SEED_DEMAND);
            });
        });
        assertThat(second).singleElement().extracting(JobEvent::data).isInstanceOfSatisfying(JobQueued.class, queued -> {
            assertThat(queued.reason()).isEqualTo("QuotaExceeded");
            assertThat(queued.message()).isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use");
            assertThat(queued.position()).isEqualTo(1);
            assertThat(queued.queue()).startsWith("root-child-2-");
        });
        assertThat(afterFinish).singleElement().satisfies(event -> {
            assertThat(event.job().name()).isEqualTo("pytorch-test-2");
            assertThat(event.data()).isInstanceOf(JobAdmitted.class);
        });
    }

    /**
     * The service's queue evaluates once a batch: its events decide nothing about waiting jobs until the batch ends,
     * and the end's decisions come with the state they change, as a batch's transaction commits them.
     */
    @Test
    void aBatchedQueueDecidesAtTheEndOfEachBatchWithTheStateItChanged() {
        FleetQueue batched = new FleetQueue(QuotaSettings.defaults(), CLOCK).batched();
        batched.handle(seedTree());
        batched.handle(policy("propagation-policy-gang-queue.yaml"));
        assertThat(jobEvents(batched.handle(submitted("pytorch-test", 1)))).isEmpty();
        assertThat(jobEvents(batched.handle(submitted("pytorch-test-2", 2)))).isEmpty();
        batched.drainState();

        List<JobEvent> decided = jobEvents(batched.batchEnded());

        assertThat(decided).extracting(event -> event.job().name() + " " + event.data().getClass().getSimpleName())
                .containsExactly("pytorch-test JobAdmitted", "pytorch-test-2 JobQueued");
        assertThat(batched.drainState()).extracting(Entry::key)
                .contains(QueueState.JOBS.key("pytorch-test-uid"), QueueState.JOBS.key("pytorch-test-2-uid"));
        assertThat(batched.batchEnded()).as("a batch that changed nothing").isEmpty();

        assertThat(jobEvents(batched.handle(finished("pytorch-test")))).isEmpty();
        assertThat(jobEvents(batched.batchEnded())).singleElement().satisfies(event -> {
            assertThat(event.job().name()).isEqualTo("pytorch-test-2");
            assertThat(event.data()).isInstanceOf(JobAdmitted.class);
        });
    }

    @Test
    void aWaitingJobSaysWhenItWouldStartFromTheRunTimeTheJobAheadOfItDeclares() {
        runningFor(queue, "45m");
        queue.handle(submitted("pytorch-test-2", 2));

        dev.muster.model.queue.JobQueueView waiting = queue.viewWithEstimate("default", "pytorch-test-2").orElseThrow();

        assertThat(waiting.estimatedStart()).isEqualTo(T0.plus(java.time.Duration.ofMinutes(45)));
        assertThat(waiting.estimate()).isEqualTo("after 1 job ends, were nothing new to arrive; where it is placed is not simulated");
        assertThat(queue.viewWithEstimate("default", "pytorch-test").orElseThrow().estimate()).as("an admitted job has none").isNull();
        assertThat(queue.usageReport()).as("the queues view: the leaf and every node above it").allSatisfy(row -> assertThat(row.nextStart())
                .isEqualTo(row.node().equals("root") || row.node().equals("root/child-2") ? T0.plus(java.time.Duration.ofMinutes(45)) : null));
    }

    /**
     * The estimate reaches the job's status through the queue's own events: told on the first tick after it is worked
     * out, then again only when it moved enough, and not at all when nothing moved.
     */
    @Test
    void aWaitingJobIsToldItsEstimateOnTheNextTickAndAgainOnlyWhenItMovedEnough() {
        dev.muster.testing.time.TestClock clock = new dev.muster.testing.time.TestClock(T0);
        FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), clock);
        JobEvent running = runningFor(queue, "45m");
        queue.handle(bound(running, T0));
        List<JobEvent> waits = jobEvents(queue.handle(submitted("pytorch-test-2", 2)));
        assertThat(waits).singleElement().extracting(event -> ((JobQueued) event.data()).estimatedStart()).as("not worked out yet").isNull();

        clock.advance(java.time.Duration.ofSeconds(1));
        assertThat(jobEvents(queue.handle(tick(clock)))).as("nothing worked out: nothing to tell").isEmpty();
        queue.startTimeInputs().ifPresent(inputs -> queue.startTimes().compute(inputs, clock.instant()));
        List<JobEvent> told = jobEvents(queue.handle(tick(clock)));

        assertThat(told).singleElement().satisfies(event -> {
            assertThat(event.job().name()).isEqualTo("pytorch-test-2");
            assertThat(event.data()).isInstanceOfSatisfying(JobQueued.class, queued -> {
                assertThat(queued.estimatedStart()).isEqualTo(T0.plus(java.time.Duration.ofMinutes(45)));
                assertThat(queued.reason()).as("the wait as last told").isEqualTo("QuotaExceeded");
                assertThat(queued.position()).isEqualTo(1);
            });
        });
        clock.advance(java.time.Duration.ofMinutes(10));
        queue.startTimeInputs().ifPresent(inputs -> queue.startTimes().compute(inputs, clock.instant()));
        assertThat(jobEvents(queue.handle(tick(clock)))).as("the same estimate: no write").isEmpty();

        // The running job is now overdue by 15 minutes: taken to end now, the estimate moved by more than a fifth of the wait.
        clock.advance(java.time.Duration.ofMinutes(50));
        queue.startTimeInputs().ifPresent(inputs -> queue.startTimes().compute(inputs, clock.instant()));
        assertThat(jobEvents(queue.handle(tick(clock)))).singleElement()
                .extracting(event -> ((JobQueued) event.data()).estimatedStart()).isEqualTo(clock.instant());
    }

    /** A gang admitted but still waiting for room on a member has not started its run: it runs its whole duration from its binding. */
    @Test
    void anAdmittedJobRunsItsExpectedDurationFromItsBindingNotFromItsAdmission() {
        dev.muster.testing.time.TestClock clock = new dev.muster.testing.time.TestClock(T0);
        FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), clock);
        JobEvent running = runningFor(queue, "45m");
        queue.handle(submitted("pytorch-test-2", 2));

        clock.advance(java.time.Duration.ofMinutes(30));
        assertThat(queue.viewWithEstimate("default", "pytorch-test-2").orElseThrow().estimatedStart()).as("not bound yet: 45 min from now")
                .isEqualTo(clock.instant().plus(java.time.Duration.ofMinutes(45)));

        Instant bound = clock.instant();
        queue.handle(bound(running, bound));
        clock.advance(java.time.Duration.ofSeconds(11));
        assertThat(queue.viewWithEstimate("default", "pytorch-test-2").orElseThrow().estimatedStart()).as("45 min from its binding")
                .isEqualTo(bound.plus(java.time.Duration.ofMinutes(45)));
    }

    /** When a job was bound is in the state topic: after a restart the job behind it is still expected from the binding, not the admission. */
    @Test
    void aBindingKeptInTheStateTopicStillCountsAfterARestartAndGoesWithTheJob() {
        dev.muster.testing.time.TestClock clock = new dev.muster.testing.time.TestClock(T0);
        FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), clock);
        JobEvent running = runningFor(queue, "45m");
        queue.handle(submitted("pytorch-test-2", 2));
        clock.advance(java.time.Duration.ofMinutes(30));
        Instant bound = clock.instant();
        queue.handle(bound(running, bound));
        Map<String, byte[]> stateTopic = new LinkedHashMap<>();
        compact(stateTopic, queue.drainState());

        FleetQueue restored = restoredFrom(stateTopic, clock);
        clock.advance(java.time.Duration.ofSeconds(11));

        assertThat(restored.viewWithEstimate("default", "pytorch-test-2").orElseThrow().estimatedStart()).as("45 min from its binding")
                .isEqualTo(bound.plus(java.time.Duration.ofMinutes(45)));
        restored.handle(finished("pytorch-test"));
        compact(stateTopic, restored.drainState());
        assertThat(stateTopic.keySet()).as("what the state topic keeps of the finished job").noneMatch(key -> key.startsWith("bound/"));
    }

    /** A job admitted before a restart and bound after it (while the queue was down, read when it is back) runs from that binding. */
    @Test
    void aJobAdmittedBeforeARestartAndBoundAfterRunsFromItsBinding() {
        dev.muster.testing.time.TestClock clock = new dev.muster.testing.time.TestClock(T0);
        FleetQueue queue = new FleetQueue(QuotaSettings.defaults(), clock);
        JobEvent running = runningFor(queue, "45m");
        queue.handle(submitted("pytorch-test-2", 2));
        Map<String, byte[]> stateTopic = new LinkedHashMap<>();
        compact(stateTopic, queue.drainState());
        FleetQueue restored = restoredFrom(stateTopic, clock);

        clock.advance(java.time.Duration.ofMinutes(20));
        assertThat(restored.viewWithEstimate("default", "pytorch-test-2").orElseThrow().estimatedStart()).as("not bound yet: 45 min from now")
                .isEqualTo(clock.instant().plus(java.time.Duration.ofMinutes(45)));
        Instant bound = clock.instant();
        restored.handle(bound(running, bound));
        clock.advance(java.time.Duration.ofSeconds(11));
        assertThat(restored.viewWithEstimate("default", "pytorch-test-2").orElseThrow().estimatedStart())
                .isEqualTo(bound.plus(java.time.Duration.ofMinutes(45)));
    }

    /** The seed's tree and queueing policy, and its job admitted, saying how long it runs: the next job of child-2 waits for it. */
    private static JobEvent runningFor(FleetQueue queue, String expectedDuration) {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        JobEvent running = submitted("pytorch-test", 1);
        ((JobSubmitted) running.data()).job().getMetadata().setAnnotations(Map.of(StartTimes.EXPECTED_DURATION, expectedDuration));
        queue.handle(running);
        return running;
    }

    private static JobEvent bound(JobEvent job, Instant at) {
        return JobEvent.create("/test", job.job(), at, dev.muster.model.event.JobBound.of("cluster-a", null, Map.of()));
    }

    private static ConfigEvent tick(Clock clock) {
        return ConfigEvent.create("/test", clock.instant(), new dev.muster.model.event.QueueTick());
    }

    @Test
    void aWaitingJobBehindAJobOfUnknownRunTimeSaysWhyItHasNoEstimate() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(submitted("pytorch-test-2", 2));

        dev.muster.model.queue.JobQueueView waiting = queue.viewWithEstimate("default", "pytorch-test-2").orElseThrow();

        assertThat(waiting.estimatedStart()).isNull();
        assertThat(waiting.estimate()).isEqualTo("no estimate: 1 job runs with no expected duration ahead of it");
    }

    @Test
    void theRunTimeAJobDeclaresIsItsDeadlineElseItsAnnotation() {
        PyTorchJob job = Manifests.read(seed("pytorch-job.yaml"), PyTorchJob.class);
        assertThat(StartTimes.declared(job)).isEmpty();
        job.getMetadata().setAnnotations(Map.of(StartTimes.EXPECTED_DURATION, "2h30m"));
        assertThat(StartTimes.declared(job)).hasValue(java.time.Duration.ofMinutes(150));
        job.getMetadata().setAnnotations(Map.of(StartTimes.EXPECTED_DURATION, "soon"));
        assertThat(StartTimes.declared(job)).as("not a duration: no estimate from it").isEmpty();
        job.getMetadata().setAnnotations(Map.of(StartTimes.EXPECTED_DURATION, "P999999999999D"));
        assertThat(StartTimes.declared(job)).as("past any clock: capped").hasValue(StartTimes.LONGEST_DECLARED);
        job.getMetadata().setAnnotations(Map.of(StartTimes.EXPECTED_DURATION, "99999999999999999999h"));
        assertThat(StartTimes.declared(job)).as("more than a long").isEmpty();
    }

    /** A job that says it runs for ever makes the jobs behind it wait past the horizon, and disturbs no other estimate. */
    @Test
    void aJobDeclaringAnAbsurdRunTimeLeavesTheEstimatesWorking() {
        runningFor(queue, "P999999999999D");
        queue.handle(submitted("pytorch-test-2", 2));

        dev.muster.model.queue.JobQueueView waiting = queue.viewWithEstimate("default", "pytorch-test-2").orElseThrow();

        assertThat(waiting.estimatedStart()).isNull();
        assertThat(waiting.estimate()).isEqualTo("no estimate: it would not start within 336 h");
    }

    @Test
    void aPolicyWithoutSuspensionSendsTheJobStraightToPlacement() {
        queue.handle(policy("propagation-policy-gang.yaml"));

        assertThat(jobEvents(queue.handle(submitted("pytorch-test", 1)))).singleElement().extracting(JobEvent::data)
                .isInstanceOfSatisfying(JobAdmitted.class, admitted -> assertThat(admitted.quotaLeaf()).isNull());
        assertThat(queue.jobs()).isEmpty();
    }

    @Test
    void aJobNoPolicyMatchesProducesNothingUntilAPolicyArrives() {
        assertThat(queue.handle(submitted("pytorch-test", 1))).isEmpty();

        List<MusterEvent> onPolicy = queue.handle(policy("propagation-policy-gang-queue.yaml"));

        assertThat(onPolicy).filteredOn(JobEvent.class::isInstance).singleElement().extracting(event -> ((JobEvent) event).data())
                .isInstanceOfSatisfying(JobQueued.class, queued -> assertThat(queued.reason()).isEqualTo("NoQuotaForNamespace"));
        assertThat(onPolicy).filteredOn(ConfigEvent.class::isInstance).singleElement().extracting(event -> ((ConfigEvent) event).data())
                .isEqualTo(new ConfigAccepted(new ConfigRef("PropagationPolicy", "default", "example-policy"), false, java.util.Map.of()));
    }

    @Test
    void anInvalidJobIsRejectedWithEveryReason() {
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        JobEvent bad = submitted("pytorch-test", 1);
        ((JobSubmitted) bad.data()).job().getSpec().pytorchReplicaSpecs().remove("Master");
        ((JobSubmitted) bad.data()).job().getSpec().pytorchReplicaSpecs().computeIfPresent("Worker",
                (type, spec) -> new dev.muster.model.job.ReplicaSpec(0, spec.restartPolicy(), spec.template()));

        assertThatThrownBy(() -> queue.handle(bad))
                .isInstanceOfSatisfying(RejectedEventException.class, rejected -> {
                    assertThat(rejected.job()).contains(bad.job());
                    assertThat(rejected.reasons()).containsExactly("spec.pytorchReplicaSpecs: total replicas must be > 0, got 0");
                });
        assertThat(queue.jobs()).isEmpty();
    }

    @Test
    void aSecondTreeAnInvalidTreeAndATreeThatStrandsJobsAreRefusedWithTheReason() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        ElasticQuotaTree other = Manifests.read(seed("elastic-quota-tree.yaml").replace("name: elasticquotatree", "name: other"), ElasticQuotaTree.class);
        ElasticQuotaTree invalid = Manifests.read(seed("elastic-quota-tree.yaml").replace("kube-queue/max-jobs: 1 ", "kube-queue/max-jobs: -1 "), ElasticQuotaTree.class);
        ElasticQuotaTree renamedLeaf = Manifests.read(seed("elastic-quota-tree.yaml").replace("- name: child-2", "- name: child-3"), ElasticQuotaTree.class);

        assertThat(refusal(queue.handle(ConfigEvent.create("/t", T0, new QuotaTreeApplied(other))))).isEqualTo(new ConfigRejected(
                new ConfigRef("ElasticQuotaTree", "kube-system", "other"),
                List.of("only one ElasticQuotaTree is supported and ElasticQuotaTree kube-system/elasticquotatree is in force"), IN_FORCE));
        assertThat(refusal(queue.handle(ConfigEvent.create("/t", T0, new QuotaTreeApplied(invalid))))).isEqualTo(new ConfigRejected(
                new ConfigRef("ElasticQuotaTree", "kube-system", "elasticquotatree"),
                List.of("spec.root.children[0].max.kube-queue/max-jobs: must not be negative, got -1"), IN_FORCE));
        assertThat(refusal(queue.handle(ConfigEvent.create("/t", T0, new QuotaTreeApplied(renamedLeaf))))).isEqualTo(new ConfigRejected(
                new ConfigRef("ElasticQuotaTree", "kube-system", "elasticquotatree"),
                List.of("cannot remove quota leaf \"child-2\": 1 admitted job(s) charged to it (default/pytorch-test)"), IN_FORCE));
        // The tree accepted first stays in force, and each object's last refusal is there for the views.
        assertThat(queue.treeInForce()).get().extracting(tree -> tree.getMetadata().getName()).isEqualTo("elasticquotatree");
        assertThat(queue.refusals()).extracting(refusal -> refusal.object().name()).containsExactlyInAnyOrder("other", "elasticquotatree");
    }

    private static final String IN_FORCE = "ElasticQuotaTree kube-system/elasticquotatree as last accepted (resourceVersion null)";

    /** The job events among a core's decisions. */
    private static List<JobEvent> jobEvents(List<MusterEvent> events) {
        return events.stream().filter(JobEvent.class::isInstance).map(JobEvent.class::cast).toList();
    }

    private static ConfigRejected refusal(List<MusterEvent> events) {
        return events.stream().filter(ConfigEvent.class::isInstance).map(event -> ((ConfigEvent) event).data())
                .filter(ConfigRejected.class::isInstance).map(ConfigRejected.class::cast).findFirst().orElseThrow();
    }

    @Test
    void aJobPlacementGivesBackFreesItsSlotAndWaitsOutItsBackoff() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(submitted("pytorch-test-2", 2));

        List<JobEvent> givenBack = jobEvents(queue.handle(JobEvent.create("/muster/placement-service",
                new JobRef("default", "pytorch-test", "pytorch-test-uid"), T0, new dev.muster.model.event.JobGivenBack("fits nowhere"))));

        assertThat(givenBack).extracting(event -> event.job().name() + " " + event.data().getClass().getSimpleName())
                .containsExactlyInAnyOrder("pytorch-test-2 JobAdmitted", "pytorch-test JobQueued");
        assertThat(givenBack).filteredOn(event -> event.job().name().equals("pytorch-test")).singleElement()
                .extracting(event -> ((JobQueued) event.data()).reason()).isEqualTo("Backoff");
    }

    @Test
    void aFinishedJobSubmittedAgainIsNotRunAgainUntilItIsDeleted() {
        queue.handle(policy("propagation-policy-gang.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(finished("pytorch-test"));

        assertThat(queue.handle(submitted("pytorch-test", 1))).as("listed again after a restart").isEmpty();
        queue.handle(JobEvent.create("/t", new JobRef("default", "pytorch-test", "pytorch-test-uid"), T0, new JobDeleted("owner")));
        assertThat(queue.drainState()).extracting(Entry::key).contains("finished/pytorch-test-uid");
        assertThat(queue.handle(submitted("pytorch-test", 1))).as("a new submission once deleted").hasSize(1);
    }

    @Test
    void aQueuedJobSubmittedAgainAsARelistWouldIsNotQueuedTwice() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(submitted("pytorch-test-2", 2));

        assertThat(queue.handle(submitted("pytorch-test", 1))).isEmpty();
        assertThat(queue.handle(submitted("pytorch-test-2", 2))).isEmpty();
        assertThat(queue.quota().queue("child-2")).hasSize(1);
    }

    /** Its pods may take their grace period to end: the next job is admitted only once placement has stopped the deleted one. */
    @Test
    void aDeletedAdmittedJobKeepsItsQuotaUntilPlacementHasStoppedIt() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(submitted("pytorch-test-2", 2));
        JobRef first = new JobRef("default", "pytorch-test", "pytorch-test-uid");

        List<JobEvent> deleted = jobEvents(queue.handle(JobEvent.create("/t", first, T0, new JobDeleted("owner"))));

        assertThat(deleted).singleElement().satisfies(event -> {
            assertThat(event.job()).isEqualTo(first);
            assertThat(event.data()).isInstanceOf(dev.muster.model.event.JobWithdrawn.class);
        });
        assertThat(queue.view("default", "pytorch-test")).get().extracting(dev.muster.model.queue.JobQueueView::state).isEqualTo("Stopping");
        List<JobEvent> stopped = jobEvents(queue.handle(JobEvent.create("/muster/placement-service", first, T0,
                new JobEvicted("cluster-a", "stopped on member cluster cluster-a"))));

        assertThat(stopped).singleElement().satisfies(event -> {
            assertThat(event.job().name()).isEqualTo("pytorch-test-2");
            assertThat(event.data()).isInstanceOf(JobAdmitted.class);
        });
        assertThat(queue.view("default", "pytorch-test")).isEmpty();
        assertThat(queue.handle(JobEvent.create("/muster/placement-service", first, T0, new JobEvicted("cluster-a", "again"))))
                .as("a repeated report changes nothing").isEmpty();
    }

    @Test
    void aJobDeletedWhileWaitingLeavesItsQueueQuietly() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("pytorch-test", 1));
        queue.handle(submitted("pytorch-test-2", 2));

        List<JobEvent> deleted = jobEvents(queue.handle(JobEvent.create("/t", new JobRef("default", "pytorch-test-2", "pytorch-test-2-uid"), T0, new JobDeleted("owner"))));

        assertThat(deleted).isEmpty();
        assertThat(queue.handle(finished("pytorch-test"))).isEmpty();
        assertThat(queue.jobs()).isEmpty();
    }

    @Test
    void aQueueRestoredFromItsStateRecordsDecidesAsTheOneThatStopped() {
        Map<String, byte[]> stateTopic = new LinkedHashMap<>();
        List<Object> inputs = List.of(seedTree(), policy("propagation-policy-gang-queue.yaml"), submitted("pytorch-test", 1),
                submitted("pytorch-test-2", 2), submitted("pytorch-test-3", 3));
        for (Object input : inputs) {
            queue.handle((dev.muster.model.event.MusterEvent) input);
            compact(stateTopic, queue.drainState());
        }
        FleetQueue restored = restoredFrom(stateTopic);

        JobEvent finish = finished("pytorch-test");
        assertThat(restored.handle(finish)).isEqualTo(queue.handle(finish));
        assertThat(restored.quota().queue("child-2")).isEqualTo(queue.quota().queue("child-2"));
        assertThat(stateTopic).containsKeys("tree", "policy/default/example-policy", "job/pytorch-test-uid");
        // Every job record carries its policy; restored, the jobs one policy selected share one copy of it again.
        assertThat(restored.jobs()).extracting(QueueState.TrackedJob::policy).hasSizeGreaterThan(1)
                .allSatisfy(policy -> assertThat(policy).isSameAs(restored.jobs().iterator().next().policy()));
    }

    @Nested
    class OneNameOneJob {

        private JobEvent submittedAs(String name, String uid) {
            PyTorchJob job = Manifests.read(seed("pytorch-job.yaml"), PyTorchJob.class);
            job.getMetadata().setName(name);
            return JobEvent.create("/kafka-producer", new JobRef("default", name, uid), T0, new JobSubmitted(job));
        }

        @Test
        void aSecondJobOfTheSameNameIsRejectedWithTheFirstOneNamedUntilTheFirstIsDeleted() {
            queue.handle(policy("propagation-policy-gang.yaml"));
            assertThat(queue.handle(submittedAs("h-f091", "uid-1"))).hasSize(1);

            assertThatThrownBy(() -> queue.handle(submittedAs("h-f091", "uid-2"))).isInstanceOfSatisfying(RejectedEventException.class,
                    rejected -> assertThat(rejected.reasons()).containsExactly("job default/h-f091 exists already (uid uid-1); one name in a"
                            + " namespace is one job: delete it first, or submit this one under another name"));
            queue.handle(finished("h-f091", "uid-1"));
            assertThatThrownBy(() -> queue.handle(submittedAs("h-f091", "uid-3"))).as("a finished job keeps its name until deleted")
                    .isInstanceOf(RejectedEventException.class);

            queue.handle(JobEvent.create("/t", new JobRef("default", "h-f091", "uid-1"), T0, new JobDeleted("owner")));

            assertThat(jobEvents(queue.handle(submittedAs("h-f091", "uid-4")))).singleElement().extracting(JobEvent::data)
                    .isInstanceOf(JobAdmitted.class);
        }

        @Test
        void aJobUidUsedAgainForAnotherNameIsRejected() {
            queue.handle(policy("propagation-policy-gang.yaml"));
            queue.handle(submittedAs("first", "same-uid"));

            assertThatThrownBy(() -> queue.handle(submittedAs("second", "same-uid"))).isInstanceOfSatisfying(RejectedEventException.class,
                    rejected -> assertThat(rejected.reasons()).containsExactly("jobuid same-uid is job default/first already; a job keeps"
                            + " its uid and its name"));
        }

        @Test
        void aRejectedJobHoldsItsNameAsItsObjectDoes() {
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobEvent invalid = submittedAs("broken", "uid-1");
            ((JobSubmitted) invalid.data()).job().getSpec().pytorchReplicaSpecs().remove("Master");
            ((JobSubmitted) invalid.data()).job().getSpec().pytorchReplicaSpecs().remove("Worker");
            assertThatThrownBy(() -> queue.handle(invalid)).isInstanceOf(RejectedEventException.class);

            assertThatThrownBy(() -> queue.handle(submittedAs("broken", "uid-2"))).hasMessageContaining("exists already (uid uid-1)");
            assertThat(queue.drainState()).extracting(Entry::key).contains("name/uid-1");
        }

        @Test
        void aDeletionOfAJobMusterNeverHadIsRefusedOnTheKafkaPathAndPassedOverFromTheFleetApi() {
            JobRef never = new JobRef("default", "never-existed", "uid-x");

            assertThatThrownBy(() -> queue.handle(JobEvent.create("/kafka-producer", never, T0, new JobDeleted("owner"))))
                    .isInstanceOfSatisfying(RejectedEventException.class, rejected -> assertThat(rejected.reasons())
                            .containsExactly("deletion refused: Muster has no job default/never-existed with jobuid uid-x"));
            assertThat(queue.handle(JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, never, T0, new JobDeleted("owner"))))
                    .as("an object the fleet API deleted existed, even if its submission could not be read").isEmpty();
        }

        @Test
        void aDeletionThatNamesAnotherJobThanItsUidsIsRefusedAndTellsNoJobAnything() {
            queue.handle(policy("propagation-policy-gang.yaml"));
            queue.handle(submittedAs("victim", "uid-1"));
            queue.drainState();

            // A submitter allowed in namespace "mine" deletes by a uid it learned, naming its own namespace.
            assertThatThrownBy(() -> queue.handle(JobEvent.create("/kafka-producer", new JobRef("mine", "anything", "uid-1"), T0,
                    new JobDeleted("mallory")))).isInstanceOfSatisfying(RejectedEventException.class, rejected -> {
                        assertThat(rejected.reasons()).containsExactly("deletion refused: jobuid uid-1 is not job mine/anything");
                        assertThat(rejected.job()).as("no rejection for either job").isEmpty();
                    });
            assertThat(queue.drainState()).as("nothing released").isEmpty();
            assertThatThrownBy(() -> queue.handle(submittedAs("victim", "uid-2"))).as("the victim still holds its name")
                    .hasMessageContaining("exists already (uid uid-1)");
        }

        @Test
        void namesSurviveARestart() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            queue.handle(submittedAs("h-f091", "uid-1"));
            compact(stateTopic, queue.drainState());

            FleetQueue restored = restoredFrom(stateTopic);

            assertThat(restored.handle(submittedAs("h-f091", "uid-1"))).as("the same job listed again").isEmpty();
            assertThatThrownBy(() -> restored.handle(submittedAs("h-f091", "uid-2"))).isInstanceOf(RejectedEventException.class);
        }

        private JobEvent applied(String name, String uid) {
            JobEvent submitted = submittedAs(name, uid);
            return JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, submitted.job(), T0, submitted.data());
        }

        private JobEvent deletedThere(JobRef job) {
            return JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, job, T0, new JobDeleted("deleted from the fleet API"));
        }

        /**
         * Deleted and applied again under its name while the queue did not watch (a restart lists the new object as added
         * before the old one is found deleted): the new job waits for the old one's deletion, across a restart, instead of
         * being refused for its name, and is submitted then. One read after a later job took the name (another partition)
         * waits too, and its own deletion, which follows it, drops it.
         */
        @Test
        void aJobAppliedAgainUnderAHeldNameWaitsForTheDeletionOfTheOneItReplacedAcrossARestart() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobEvent first = applied("again", "uid-1");
            queue.handle(first);
            JobEvent second = applied("again", "uid-2");

            assertThat(queue.handle(second)).as("neither refused nor decided yet").isEmpty();
            compact(stateTopic, queue.drainState());
            FleetQueue restored = restoredFrom(stateTopic);
            List<MusterEvent> decided = restored.handle(deletedThere(first.job()));

            assertThat(jobEvents(decided)).filteredOn(event -> event.job().equals(second.job())).singleElement().extracting(JobEvent::data)
                    .isInstanceOf(JobAdmitted.class);
            assertThat(restored.fleetApiJobs()).containsExactly(second.job());

            JobEvent stale = applied("again", "uid-0");
            assertThat(restored.handle(stale)).isEmpty();
            restored.handle(deletedThere(stale.job()));
            assertThat(jobEvents(restored.handle(deletedThere(second.job())))).as("nothing waits for the name any more")
                    .noneMatch(event -> event.job().equals(stale.job()));
            compact(stateTopic, restored.drainState());
            assertThat(stateTopic.keySet()).noneMatch(key -> key.startsWith("applied-again/"));
        }

        /** On the Kafka path a name is a submitter's word, not an object's: a second job of a held name is refused. */
        @Test
        void aJobSubmittedOnKafkaUnderANameAJobAppliedOnTheFleetApiHoldsIsRefused() {
            queue.handle(policy("propagation-policy-gang.yaml"));
            queue.handle(applied("held", "uid-1"));

            assertThatThrownBy(() -> queue.handle(submittedAs("held", "uid-2"))).isInstanceOf(RejectedEventException.class);
        }

        /**
         * The jobs submitted through the fleet API are known as such until deleted, across a restart, finished ones too:
         * a deletion there that the queue missed is found by their absence.
         */
        @Test
        void jobsSubmittedThroughTheFleetApiAreKnownAsSuchUntilTheirDeletionAcrossARestart() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobEvent viaFleetApi = submittedAs("applied", "uid-1");
            queue.handle(JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, viaFleetApi.job(), T0, viaFleetApi.data()));
            queue.handle(submittedAs("produced", "uid-2"));
            queue.handle(finished("applied", "uid-1"));
            compact(stateTopic, queue.drainState());

            FleetQueue restored = restoredFrom(stateTopic);

            assertThat(restored.fleetApiJobs()).as("the Kafka path's job is deleted on Kafka only").containsExactly(viaFleetApi.job());
            restored.handle(JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, viaFleetApi.job(), T0, new JobDeleted("deleted")));
            compact(stateTopic, restored.drainState());
            assertThat(restored.fleetApiJobs()).isEmpty();
            assertThat(restoredFrom(stateTopic).fleetApiJobs()).isEmpty();
        }

        /**
         * A job submitted on Kafka is looked for on the fleet API once status sync has shown it there, across a restart,
         * until it is deleted; a report naming a uid the queue holds under another name makes nothing to look for.
         */
        @Test
        void aKafkaJobShownOnTheFleetApiIsKnownAsThereUntilItsDeletionAcrossARestart() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobEvent produced = submittedAs("produced", "uid-1");
            queue.handle(produced);
            queue.handle(submittedAs("not-shown", "uid-2"));
            assertThat(queue.fleetApiJobs()).as("not shown yet").isEmpty();

            queue.handle(shown(produced.job()));
            queue.handle(shown(new JobRef("default", "another-name", "uid-2")));
            queue.handle(finished("produced", "uid-1"));
            compact(stateTopic, queue.drainState());

            FleetQueue restored = restoredFrom(stateTopic);
            assertThat(restored.fleetApiJobs()).containsExactly(produced.job());
            restored.handle(JobEvent.create("/producer", produced.job(), T0, new JobDeleted("deleted")));
            compact(stateTopic, restored.drainState());
            assertThat(restored.fleetApiJobs()).isEmpty();
            assertThat(restoredFrom(stateTopic).fleetApiJobs()).isEmpty();
        }

        /**
         * Status sync's report can be read before the submission it wrote the object for (another topic; a restarted queue
         * reads its backlog in any order): the job is looked for all the same, and its deletion on the fleet API while the
         * queue was away is found. A report of a job already deleted is cleared by the deletion the check then sends.
         */
        @Test
        void aKafkaJobShownBeforeItsSubmissionIsReadIsLookedForAndAReportOfADeletedJobIsClearedByTheCheck() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobRef early = new JobRef("default", "shown-early", "uid-4");
            queue.handle(shown(early));
            compact(stateTopic, queue.drainState());
            FleetQueue restored = restoredFrom(stateTopic);
            restored.handle(submittedAs("shown-early", "uid-4"));
            assertThat(restored.fleetApiJobs()).containsExactly(early);
            // Deleted on the fleet API while the queue was away: the check for missed deletions sends it.
            restored.handle(JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, early, T0, new JobDeleted("deleted from the fleet API while the queue was not watching")));
            assertThat(restored.view("default", "shown-early")).as("the deleted job").isEmpty();
            assertThat(restored.fleetApiJobs()).isEmpty();

            JobRef gone = new JobRef("default", "deleted-before-its-report", "uid-5");
            restored.handle(shown(gone));
            assertThat(restored.fleetApiJobs()).as("looked for, as its submission may come next").containsExactly(gone);
            restored.handle(JobEvent.create(dev.muster.model.job.FleetJobs.INGRESS_SOURCE, gone, T0, new JobDeleted("deleted from the fleet API while the queue was not watching")));
            compact(stateTopic, restored.drainState());
            assertThat(restored.fleetApiJobs()).as("its object gone, nothing is left to look for").isEmpty();
            assertThat(restoredFrom(stateTopic).fleetApiJobs()).isEmpty();
        }

        /**
         * The object a Kafka job is first shown with is its own, across a restart: one it is shown with later was written
         * after that one was deleted (its submission read again), which the fleet API watch must tell from the first.
         */
        @Test
        void aKafkaJobKeepsTheObjectItWasFirstShownWithAcrossARestart() {
            Map<String, byte[]> stateTopic = new LinkedHashMap<>();
            queue.handle(policy("propagation-policy-gang.yaml"));
            JobEvent produced = submittedAs("produced", "uid-6");
            queue.handle(produced);
            queue.handle(shown(produced.job()));
            compact(stateTopic, queue.drainState());

            FleetQueue restored = restoredFrom(stateTopic);
            restored.handle(JobEvent.create("/muster/status-sync-service", produced.job(), T0, new dev.muster.model.event.JobShown("written-again")));
            compact(stateTopic, restored.drainState());

            assertThat(restoredFrom(stateTopic).fleetApiObjects()).containsExactly(new FleetApiJob("default", "produced", "uid-6", "object-uid-6"));
        }

        private JobEvent shown(JobRef job) {
            return JobEvent.create("/muster/status-sync-service", job, T0, new dev.muster.model.event.JobShown("object-" + job.uid()));
        }

        private JobEvent finished(String name, String uid) {
            return JobEvent.create("/t", new JobRef("default", name, uid), T0, new JobFinished("cluster-a", "Succeeded", null));
        }
    }

    @Test
    void aJobWhoseDemandNoQuotaNodeCouldEverHoldIsRejectedAtSubmissionWithTheLimitNamed() {
        queue.handle(seedTree());
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        JobEvent huge = submitted("huge", 1);
        ((JobSubmitted) huge.data()).job().getSpec().pytorchReplicaSpecs().get("Worker").template().getSpec().getContainers().get(0)
                .getResources().getRequests().put("cpu", new io.fabric8.kubernetes.api.model.Quantity("20000"));
        ((JobSubmitted) huge.data()).job().getSpec().pytorchReplicaSpecs().get("Worker").template().getSpec().getContainers().get(0)
                .getResources().getLimits().put("cpu", new io.fabric8.kubernetes.api.model.Quantity("20000"));

        assertThatThrownBy(() -> queue.handle(huge)).isInstanceOfSatisfying(RejectedEventException.class, rejected ->
                assertThat(rejected.reasons()).containsExactly("root/child-2: cpu max 10000, job needs 40000010m; it can never be admitted"
                        + " under this tree"));
        assertThat(queue.quota().isWaiting("huge-uid")).as("it holds no place in the queue").isFalse();
    }

    @Test
    void aRefusedTreeIsRememberedAcrossARestartAndForgottenOnceAcceptedAgain() {
        Map<String, byte[]> stateTopic = new LinkedHashMap<>();
        queue.handle(seedTree());
        ElasticQuotaTree invalid = Manifests.read(seed("elastic-quota-tree.yaml").replace("kube-queue/max-jobs: 1 ", "kube-queue/max-jobs: -1 "),
                ElasticQuotaTree.class);
        queue.handle(ConfigEvent.create("/t", T0, new QuotaTreeApplied(invalid)));
        compact(stateTopic, queue.drainState());
        FleetQueue restored = restoredFrom(stateTopic);

        assertThat(restored.refusals()).singleElement().satisfies(refusal -> assertThat(refusal.reasons())
                .containsExactly("spec.root.children[0].max.kube-queue/max-jobs: must not be negative, got -1"));
        List<MusterEvent> accepted = restored.handle(seedTree());

        assertThat(restored.refusals()).isEmpty();
        assertThat(accepted).filteredOn(ConfigEvent.class::isInstance).singleElement()
                .satisfies(event -> assertThat(((ConfigEvent) event).data()).isInstanceOfSatisfying(ConfigAccepted.class,
                        data -> assertThat(data.queues()).containsOnlyKeys("root", "child-2")));
    }

    @Test
    void aWaitingJobsReasonIsReadWithTheNumbersOfNowNotOfWhenItWasTold() {
        applyTree("""
                    name: root
                    children:
                    - name: lab
                      max: {memory: 10Gi}
                      namespaces: [default]
                """);
        queue.handle(policy("propagation-policy-gang-queue.yaml"));
        queue.handle(submitted("first", 1));
        JobEvent big = submitted("big", 2);
        ((JobSubmitted) big.data()).job().getSpec().pytorchReplicaSpecs().get("Worker").template().getSpec().getContainers().get(0)
                .getResources().getRequests().put("memory", new io.fabric8.kubernetes.api.model.Quantity("4Gi"));
        List<JobEvent> waits = jobEvents(queue.handle(big));
        queue.handle(submitted("small", 3));

        assertThat(waits).singleElement().extracting(event -> ((JobQueued) event.data()).message())
                .isEqualTo("root/lab: memory 4Gi/10Gi in use, job needs 8Gi");
        // The small job passed it and took 4Gi more; the reason was not told again (same node, same resource), but is read as now.
        assertThat(queue.view("default", "big")).get().extracting(dev.muster.model.queue.JobQueueView::message)
                .isEqualTo("root/lab: memory 8Gi/10Gi in use, job needs 8Gi");
    }

    /**
     * team-a borrows team-b's guaranteed cpu; team-b's job arrives. The borrower is preempted, and stays charged while
     * placement stops it; a restart in between changes nothing; only its stop admits the reclaimer.
     */
    @Test
    void aReclaimAdmitsTheReclaimerOnlyOnceTheVictimHasStoppedAcrossARestart() {
        applyTree("""
                    name: root
                    max: {cpu: 8020m}
                    min: {cpu: 8020m}
                    children:
                    - {name: team-a, max: {cpu: 8020m}, min: {cpu: 4010m}, namespaces: [team-a]}
                    - {name: team-b, max: {cpu: 8020m}, min: {cpu: 4010m}, namespaces: [team-b]}
                """);
        for (String namespace : List.of("team-a", "team-b")) {
            PropagationPolicy policy = Manifests.read(seed("propagation-policy-gang-queue.yaml"), PropagationPolicy.class);
            policy.getMetadata().setNamespace(namespace);
            queue.handle(ConfigEvent.create("/t", T0, new PolicyApplied(policy)));
        }
        queue.handle(submittedIn("team-a", "first", 1));
        queue.handle(submittedIn("team-a", "second", 2));

        List<JobEvent> onArrival = jobEvents(queue.handle(submittedIn("team-b", "guaranteed", 3)));

        assertThat(onArrival).extracting(event -> event.job().name() + " " + event.data().getClass().getSimpleName())
                .containsExactly("second JobPreempted", "guaranteed JobQueued");
        assertThat(((JobPreempted) onArrival.get(0).data()).by()).isEqualTo("team-b/guaranteed");
        assertThat(((JobQueued) onArrival.get(1).data()).reason()).isEqualTo("Reclaiming");
        assertThat(queue.view("team-a", "second")).get().extracting(dev.muster.model.queue.JobQueueView::state).isEqualTo("Preempting");

        Map<String, byte[]> stateTopic = new LinkedHashMap<>();
        compact(stateTopic, queue.drainState());
        FleetQueue restored = restoredFrom(stateTopic);
        assertThat(restored.quota().usage("root").amount("cpu")).as("the victim is charged until it stops").isEqualByComparingTo("8.02");

        List<JobEvent> onStop = jobEvents(restored.handle(JobEvent.create("/muster/placement-service",
                new JobRef("team-a", "second", "second-uid"), T0, new JobEvicted("cluster-a", "stopped on cluster-a"))));

        assertThat(onStop).extracting(event -> event.job().name() + " " + event.data().getClass().getSimpleName())
                .containsExactlyInAnyOrder("guaranteed JobAdmitted", "second JobQueued");
        assertThat(restored.view("team-a", "second")).get().satisfies(view -> {
            assertThat(view.state()).isEqualTo("Queuing");
            assertThat(view.position()).isEqualTo(1);
        });
    }

    private static JobEvent submittedIn(String namespace, String name, int second) {
        PyTorchJob job = Manifests.read(seed("pytorch-job.yaml"), PyTorchJob.class);
        job.getMetadata().setName(name);
        job.getMetadata().setNamespace(namespace);
        return JobEvent.create("/test", new JobRef(namespace, name, name + "-uid"), T0.plusSeconds(second), new JobSubmitted(job));
    }

    /** Applies a tree kube-system/tree with this root, written as the body of {@code spec.root}, indented by four. */
    private void applyTree(String root) {
        String yaml = "apiVersion: scheduling.sigs.k8s.io/v1beta1\nkind: ElasticQuotaTree\nmetadata: {name: tree, namespace: kube-system}\n"
                + "spec:\n  root:\n" + root;
        queue.handle(ConfigEvent.create("/t", T0, new QuotaTreeApplied(Manifests.read(yaml, ElasticQuotaTree.class))));
    }

    /** A queue restored from what the compacted state topic holds. */
    private static FleetQueue restoredFrom(Map<String, byte[]> stateTopic) {
        return restoredFrom(stateTopic, CLOCK);
    }

    private static FleetQueue restoredFrom(Map<String, byte[]> stateTopic, Clock clock) {
        return FleetQueue.restore(QuotaSettings.defaults(), clock,
                stateTopic.entrySet().stream().map(entry -> new Entry(entry.getKey(), entry.getValue())).toList());
    }

    private static void compact(Map<String, byte[]> topic, List<Entry> records) {
        for (Entry record : records) {
            if (record.value() == null) {
                topic.remove(record.key());
            } else {
                topic.put(record.key(), record.value());
            }
        }
    }
}
