package dev.muster.queue.core.quota;

import static dev.muster.queue.core.quota.QuotaFixtures.T0;
import static dev.muster.queue.core.quota.QuotaFixtures.admission;
import static dev.muster.queue.core.quota.QuotaFixtures.cpu;
import static dev.muster.queue.core.quota.QuotaFixtures.gpu;
import static dev.muster.queue.core.quota.QuotaFixtures.job;
import static dev.muster.queue.core.quota.QuotaFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaDecision.Preempted;
import dev.muster.queue.core.quota.QuotaDecision.Waiting;

class QuotaAdmissionTest {

    private static final Map<String, String> SEED_DEMAND = Map.of("cpu", "4010m", "memory", "4Gi");

    @Nested
    class TheSeedScenario {

        private final QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        private final QuotaJob first = job("default", "pytorch-test", SEED_DEMAND);
        private final QuotaJob second = job("default", "pytorch-test-2", SEED_DEMAND);

        @Test
        void theFirstJobIsAdmittedAndTheSecondWaitsForChild2sOneJobSlot() {
            assertThat(quota.submit(first, T0)).containsExactly(new Admitted(first, "child-2"));

            List<QuotaDecision> decisions = quota.submit(second, T0.plusSeconds(1));

            String queue = quota.tree().orElseThrow().node("child-2").orElseThrow().queue();
            assertThat(decisions).containsExactly(new Waiting(second, queue, 1, QuotaAdmission.QUOTA_EXCEEDED,
                    "root/child-2: kube-queue/max-jobs 1/1 in use"));
            assertThat(quota.usage("child-2")).isEqualTo(ResourceList.parse(
                    Map.of("cpu", "4010m", "memory", "4Gi", "kube-queue/max-jobs", "1")));
        }

        @Test
        void theSecondJobRunsWhenTheFirstFinishes() {
            quota.submit(first, T0);
            quota.submit(second, T0.plusSeconds(1));

            assertThat(quota.release(first.uid(), T0.plusSeconds(60))).containsExactly(new Admitted(second, "child-2"));
            assertThat(quota.usage("root").amount("kube-queue/max-jobs")).isEqualByComparingTo("1");
        }
    }

    /** Passes deferred to a batch's end, as the queue service reads its inputs: one pass decides for every change of the batch. */
    @Nested
    class ABatchOfChanges {

        private final QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        private final QuotaJob running = job("default", "running", SEED_DEMAND);
        private final QuotaJob waiting = job("default", "waiting", SEED_DEMAND, 0, T0.plusSeconds(1));
        private final QuotaJob urgent = job("default", "urgent", SEED_DEMAND, 100, T0.plusSeconds(30));

        @Test
        void decidesNothingUntilItsEndAndThenOncePerJob() {
            quota.deferPasses();
            assertThat(quota.submit(running, T0)).isEmpty();
            assertThat(quota.submit(waiting, T0.plusSeconds(1))).isEmpty();
            assertThat(quota.owesPass()).isTrue();

            String queue = quota.tree().orElseThrow().node("child-2").orElseThrow().queue();
            assertThat(quota.flush(T0.plusSeconds(2))).containsExactly(new Admitted(running, "child-2"),
                    new Waiting(waiting, queue, 1, QuotaAdmission.QUOTA_EXCEEDED, "root/child-2: kube-queue/max-jobs 1/1 in use"));
            assertThat(quota.owesPass()).isFalse();
            assertThat(quota.flush(T0.plusSeconds(3))).isEmpty();
        }

        /**
         * A job ends and a job of higher priority arrives in one batch: the pass weighs the arrival with the job that
         * waited, by the queue's order. A pass after each change gave the freed slot to the job waiting when it freed.
         */
        @Test
        void givesWhatAJobEndingInItFreesByTheQueuesOrderToTheJobsArrivingInItToo() {
            QuotaAdmission eachChange = admission(tree(QuotaFixtures.SEED_TREE));
            eachChange.submit(running, T0);
            eachChange.submit(waiting, T0.plusSeconds(1));
            assertThat(eachChange.release(running.uid(), T0.plusSeconds(60))).containsExactly(new Admitted(waiting, "child-2"));
            assertThat(eachChange.submit(urgent, T0.plusSeconds(60))).extracting(QuotaDecision::job).containsExactly(urgent);

            quota.submit(running, T0);
            quota.submit(waiting, T0.plusSeconds(1));
            quota.deferPasses();
            quota.release(running.uid(), T0.plusSeconds(60));
            quota.submit(urgent, T0.plusSeconds(60));
            List<QuotaDecision> decided = quota.flush(T0.plusSeconds(60));

            assertThat(decided).filteredOn(Admitted.class::isInstance).containsExactly(new Admitted(urgent, "child-2"));
            assertThat(quota.isWaiting(waiting.uid())).isTrue();
        }
    }

    @Test
    void aNamespaceWithNoLeafIsHeldUntilATreeBindsIt() {
        QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        QuotaJob job = job("team-x", "train", cpu("1"));

        assertThat(quota.submit(job, T0)).containsExactly(new Waiting(job, null, 0, QuotaAdmission.NO_QUOTA_FOR_NAMESPACE,
                "namespace \"team-x\" is bound to no quota leaf of the ElasticQuotaTree"));

        QuotaTree bound = tree(QuotaFixtures.SEED_TREE.replace("namespaces: [default]", "namespaces: [default, team-x]"));
        assertThat(assertDoesNotReject(() -> quota.replaceTree(bound, T0.plusSeconds(5)))).containsExactly(new Admitted(job, "child-2"));
    }

    @Test
    void withNoTreeAtAllEveryJobIsHeld() {
        QuotaAdmission quota = new QuotaAdmission(null, QuotaSettings.defaults());
        QuotaJob job = job("default", "j", cpu("1"));

        assertThat(quota.submit(job, T0)).singleElement().isInstanceOfSatisfying(Waiting.class,
                waiting -> assertThat(waiting.reason()).isEqualTo(QuotaAdmission.NO_QUOTA_FOR_NAMESPACE));
    }

    @Test
    void anAncestorsLimitOnOneResourceHoldsJobsOfEveryLeafBelowIt() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                max: {nvidia.com/gpu: 8, cpu: 100}
                children:
                - {name: team-a, max: {nvidia.com/gpu: 8}, namespaces: [a]}
                - {name: team-b, max: {nvidia.com/gpu: 8}, namespaces: [b]}
                """));
        QuotaJob six = job("a", "six", Map.of("nvidia.com/gpu", "6", "cpu", "10"));
        QuotaJob four = job("b", "four", Map.of("nvidia.com/gpu", "4", "cpu", "10"));

        quota.submit(six, T0);

        assertThat(quota.submit(four, T0)).singleElement().isInstanceOfSatisfying(Waiting.class, waiting ->
                assertThat(waiting.message()).isEqualTo("root: nvidia.com/gpu 6/8 in use, job needs 4"));
    }

    @Test
    void aWaitingJobIsToldAgainWhenWhatBlocksItChangesNotEachTimeTheNumbersMove() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                max: {nvidia.com/gpu: 8}
                children:
                - {name: team-a, max: {nvidia.com/gpu: 8}, namespaces: [a]}
                - {name: team-b, max: {nvidia.com/gpu: 8, cpu: 10}, namespaces: [b]}
                """));
        quota.submit(job("a", "six", gpu("6")), T0);
        assertThat(quota.submit(job("b", "four", Map.of("nvidia.com/gpu", "4", "cpu", "4")), T0)).singleElement()
                .isInstanceOfSatisfying(Waiting.class, waiting -> assertThat(waiting.message()).isEqualTo("root: nvidia.com/gpu 6/8 in use, job needs 4"));

        // The root still blocks it, at 7/8 now: nothing new to tell.
        QuotaJob one = job("a", "one", gpu("1"));
        assertThat(quota.submit(one, T0)).containsExactly(new Admitted(one, "team-a"));

        // Its own leaf's CPUs now block it as well, and the leaf comes first: that is news.
        QuotaJob busy = job("b", "busy", cpu("8"));
        assertThat(quota.submit(busy, T0)).containsExactly(new Admitted(busy, "team-b"));
        assertThat(quota.reevaluate(T0)).singleElement().isInstanceOfSatisfying(Waiting.class, waiting ->
                assertThat(waiting.message()).isEqualTo("root/team-b: cpu 8/10 in use, job needs 4"));
    }

    @Test
    void higherPriorityGoesFirstThenEarlierSubmission() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                children:
                - {name: leaf, max: {kube-queue/max-jobs: 1}, namespaces: [ns]}
                """));
        QuotaJob running = job("ns", "running", cpu("1"), 0, T0);
        QuotaJob early = job("ns", "early", cpu("1"), 0, T0.plusSeconds(1));
        QuotaJob urgent = job("ns", "urgent", cpu("1"), 100, T0.plusSeconds(2));
        QuotaJob late = job("ns", "late", cpu("1"), 0, T0.plusSeconds(3));
        quota.submit(running, T0);
        quota.submit(early, T0.plusSeconds(1));
        quota.submit(urgent, T0.plusSeconds(2));
        quota.submit(late, T0.plusSeconds(3));

        assertThat(quota.queue("leaf")).containsExactly(urgent, early, late);
        assertThat(quota.release(running.uid(), T0.plusSeconds(10))).contains(new Admitted(urgent, "leaf"));
        assertThat(quota.release(urgent.uid(), T0.plusSeconds(20))).contains(new Admitted(early, "leaf"));
    }

    @Nested
    class BestEffortAndStrictFifo {

        private static final String TREE = """
                name: root
                children:
                - {name: leaf, max: {cpu: 10}, namespaces: [ns]}
                """;

        @Test
        void aHeadThatDoesNotFitDoesNotBlockSmallerJobsBehindIt() {
            QuotaAdmission quota = admission(tree("", TREE));
            quota.submit(job("ns", "eight", cpu("8")), T0);
            QuotaJob four = job("ns", "four", cpu("4"));
            QuotaJob two = job("ns", "two", cpu("2"));
            quota.submit(four, T0);

            assertThat(quota.submit(two, T0)).containsExactly(new Admitted(two, "leaf"));
            assertThat(quota.isWaiting(four.uid())).isTrue();
        }

        @Test
        void inAStrictFifoQueueNothingPassesTheHead() {
            QuotaAdmission quota = new QuotaAdmission(tree("", TREE), new QuotaSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), Set.of("leaf")));
            quota.submit(job("ns", "eight", cpu("8")), T0);
            QuotaJob four = job("ns", "four", cpu("4"));
            QuotaJob two = job("ns", "two", cpu("2"));
            quota.submit(four, T0);

            assertThat(quota.submit(two, T0)).singleElement().isInstanceOfSatisfying(Waiting.class, waiting -> {
                assertThat(waiting.reason()).isEqualTo(QuotaAdmission.BEHIND_STRICT_HEAD);
                assertThat(waiting.position()).isEqualTo(2);
                assertThat(waiting.message()).startsWith("behind ns/four at the head of strict FIFO queue root-leaf-");
            });
        }
    }

    @Test
    void aJobSkippedLongerThanTheStarvationAgeHoldsCapacityForItself() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                children:
                - {name: leaf, max: {cpu: 10}, namespaces: [ns]}
                """));
        QuotaJob six = job("ns", "six", cpu("6"));
        QuotaJob big = job("ns", "big", cpu("6"));
        QuotaJob small = job("ns", "small", cpu("2"));
        QuotaJob later = job("ns", "later", cpu("2"));
        quota.submit(six, T0);
        quota.submit(big, T0);
        quota.submit(small, T0);
        quota.release(small.uid(), T0.plusSeconds(30));

        // Eleven minutes on, "big" has waited past the starvation age: the 4 cpu free are held for it.
        List<QuotaDecision> decisions = quota.submit(later, T0.plus(Duration.ofMinutes(11)));

        assertThat(decisions).singleElement().isInstanceOfSatisfying(Waiting.class, waiting -> {
            assertThat(waiting.reason()).isEqualTo(QuotaAdmission.HELD_FOR_STARVING_JOB);
            assertThat(waiting.message()).isEqualTo("root/leaf: cpu 6/10 in use and 6 held for starving ns/big, job needs 2");
        });
        assertThat(quota.release(six.uid(), T0.plus(Duration.ofMinutes(12))))
                .containsExactly(new Admitted(big, "leaf"), new Admitted(later, "leaf"));
    }

    @Test
    void aWaitingJobWhoseLimitNowHoldsCapacityForAStarvingJobIsNotToldAgain() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                children:
                - {name: leaf, max: {cpu: 10}, namespaces: [ns]}
                """));
        QuotaJob first = job("ns", "first", cpu("4"));
        quota.submit(first, T0);
        quota.submit(job("ns", "second", cpu("4")), T0);
        quota.submit(job("ns", "big", cpu("7")), T0);
        assertThat(quota.submit(job("ns", "later", cpu("4")), T0)).singleElement().isInstanceOfSatisfying(Waiting.class, waiting ->
                assertThat(waiting.reason()).isEqualTo(QuotaAdmission.QUOTA_EXCEEDED));

        // "later" would fit the 6 cpu now free, but they are held for "big", starving: the same limit still blocks it.
        assertThat(quota.release(first.uid(), T0.plus(Duration.ofMinutes(11)))).isEmpty();
    }

    @Test
    void capacityHeldForManyStarvingJobsNamesTheFirstFewSoTheMessageStaysShortAndSteady() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                max: {cpu: 100}
                children:
                - {name: leaf, max: {cpu: 10}, namespaces: [ns]}
                """));
        quota.submit(job("ns", "six", cpu("6")), T0);
        for (int i = 0; i < 5; i++) {
            quota.submit(job("ns", "big-" + i, cpu("6")), T0.plusSeconds(i));
        }

        List<QuotaDecision> decisions = quota.submit(job("ns", "later", cpu("2")), T0.plus(Duration.ofMinutes(11)));

        assertThat(decisions).filteredOn(decision -> decision.job().name().equals("later")).singleElement()
                .isInstanceOfSatisfying(Waiting.class, waiting -> assertThat(waiting.message()).isEqualTo(
                        "root/leaf: cpu 6/10 in use and 30 held for starving ns/big-0, ns/big-1, ns/big-2 and others, job needs 2"));
    }

    @Test
    void aJobLargerThanAnyMaxOnItsPathIsToldItCanNeverBeAdmitted() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                max: {cpu: 10}
                children:
                - {name: leaf, max: {cpu: 10}, namespaces: [ns]}
                """));
        QuotaJob huge = job("ns", "huge", cpu("12"));

        assertThat(quota.submit(huge, T0)).singleElement().isInstanceOfSatisfying(Waiting.class, waiting -> {
            assertThat(waiting.reason()).isEqualTo(QuotaAdmission.QUOTA_NEVER_FITS);
            assertThat(waiting.message()).isEqualTo("root/leaf: cpu max 10, job needs 12; it can never be admitted under this tree");
        });
    }

    @Test
    void aJobGivenBackWaitsOutItsBackoffThenReturnsAtItsOriginalPosition() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                children:
                - {name: leaf, max: {kube-queue/max-jobs: 1}, namespaces: [ns]}
                """));
        QuotaJob first = job("ns", "first", cpu("1"), 0, T0);
        QuotaJob second = job("ns", "second", cpu("1"), 0, T0.plusSeconds(1));
        quota.submit(first, T0);
        quota.submit(second, T0.plusSeconds(1));

        List<QuotaDecision> givenBack = quota.giveBack(first.uid(), T0.plusSeconds(5));

        assertThat(givenBack).contains(new Admitted(second, "leaf"));
        assertThat(givenBack).filteredOn(Waiting.class::isInstance).singleElement().satisfies(waiting ->
                assertThat(((Waiting) waiting).reason()).isEqualTo(QuotaAdmission.BACKOFF));
        quota.release(second.uid(), T0.plusSeconds(10));
        assertThat(quota.isAdmitted(first.uid())).as("still backing off at +10 s").isFalse();
        assertThat(quota.reevaluate(T0.plusSeconds(36))).containsExactly(new Admitted(first, "leaf"));
    }

    @Test
    void eachFurtherGiveBackDoublesTheBackoff() {
        QuotaAdmission quota = admission(tree("", """
                name: root
                children:
                - {name: leaf, max: {kube-queue/max-jobs: 1}, namespaces: [ns]}
                """));
        QuotaJob job = job("ns", "returned", cpu("1"), 0, T0);
        quota.submit(job, T0);
        quota.giveBack(job.uid(), T0);
        quota.reevaluate(T0.plusSeconds(30));

        quota.giveBack(job.uid(), T0.plusSeconds(30));

        assertThat(quota.reevaluate(T0.plusSeconds(89))).as("second backoff is 60 s, not 30").isEmpty();
        assertThat(quota.reevaluate(T0.plusSeconds(90))).containsExactly(new Admitted(job, "leaf"));
        assertThat(quota.standing(job.uid())).get().extracting(JobStanding::giveBacks).isEqualTo(2);
    }

    @Test
    void removingALeafThatHasAdmittedJobsIsRejectedAndNothingChanges() {
        QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        quota.submit(job("default", "pytorch-test", SEED_DEMAND), T0);
        QuotaTree withoutChild = tree("", """
                name: root
                children:
                - {name: other, namespaces: [other]}
                """);

        assertThatThrownBy(() -> quota.replaceTree(withoutChild, T0))
                .isInstanceOf(TreeChangeRejectedException.class)
                .hasMessage("cannot remove quota leaf \"child-2\": 1 admitted job(s) charged to it (default/pytorch-test)");
        assertThat(quota.tree().orElseThrow().node("child-2")).isPresent();
    }

    @Test
    void aLargerMaxAppliedAtRunTimeAdmitsWaitingJobs() {
        QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        QuotaJob first = job("default", "first", SEED_DEMAND);
        QuotaJob second = job("default", "second", SEED_DEMAND);
        quota.submit(first, T0);
        quota.submit(second, T0);

        QuotaTree twoJobs = tree(QuotaFixtures.SEED_TREE.replace("kube-queue/max-jobs: 1,", "kube-queue/max-jobs: 2,"));

        assertThat(assertDoesNotReject(() -> quota.replaceTree(twoJobs, T0.plusSeconds(1)))).containsExactly(new Admitted(second, "child-2"));
    }

    @Test
    void submittingTwiceAndReleasingAnUnknownJobChangeNothing() {
        QuotaAdmission quota = admission(tree(QuotaFixtures.SEED_TREE));
        QuotaJob job = job("default", "j", SEED_DEMAND);
        quota.submit(job, T0);

        assertThat(quota.submit(job, T0)).isEmpty();
        assertThat(quota.release("no-such-uid", T0)).isEmpty();
        assertThat(quota.usage("root").amount("kube-queue/max-jobs")).isEqualByComparingTo("1");
    }

    private interface TreeChange {
        List<QuotaDecision> apply() throws TreeChangeRejectedException;
    }

    private static List<QuotaDecision> assertDoesNotReject(TreeChange change) {
        try {
            return change.apply();
        } catch (TreeChangeRejectedException e) {
            throw new AssertionError("the tree change was rejected: " + e.getMessage(), e);
        }
    }
}
