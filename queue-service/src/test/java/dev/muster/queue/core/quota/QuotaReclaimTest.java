package dev.muster.queue.core.quota;

import static dev.muster.queue.core.quota.QuotaFixtures.T0;
import static dev.muster.queue.core.quota.QuotaFixtures.admission;
import static dev.muster.queue.core.quota.QuotaFixtures.gpu;
import static dev.muster.queue.core.quota.QuotaFixtures.job;
import static dev.muster.queue.core.quota.QuotaFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaDecision.Preempted;
import dev.muster.queue.core.quota.QuotaDecision.Waiting;

/**
 * Borrowing and taking it back: a node may use what its siblings leave unused, and a job within its guaranteed min
 * takes it back by preempting borrowers, which stay charged until they have stopped on their members.
 */
class QuotaReclaimTest {

    private static final String TREE = """
            name: root
            max: {nvidia.com/gpu: 8}
            min: {nvidia.com/gpu: 8}
            children:
            - {name: team-a, max: {nvidia.com/gpu: 8}, min: {nvidia.com/gpu: 4}, namespaces: [a]}
            - {name: team-b, max: {nvidia.com/gpu: 8}, min: {nvidia.com/gpu: 4}, namespaces: [b]}
            """;

    private final QuotaAdmission quota = admission(tree("", TREE));
    private final QuotaJob[] borrower = new QuotaJob[5];

    /** team-a borrows all of team-b's guarantee: four jobs of 2 GPUs each. */
    private void teamABorrowsEverything() {
        for (int i = 1; i <= 4; i++) {
            borrower[i] = job("a", "a" + i, gpu("2"), 0, T0.plusSeconds(i));
            assertThat(quota.submit(borrower[i], T0.plusSeconds(i))).singleElement().isInstanceOf(Admitted.class);
        }
    }

    private String queueOf(String leaf) {
        return quota.tree().orElseThrow().node(leaf).orElseThrow().queue();
    }

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    @Test
    void aNodeMayBorrowWhatItsSiblingLeavesUnused() {
        teamABorrowsEverything();

        assertThat(quota.usage("team-a").amount("nvidia.com/gpu")).isEqualByComparingTo("8");
    }

    @Test
    void aGuaranteedJobPreemptsTheNewestBorrowersJustEnoughAndWaitsUntilTheyHaveStopped() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));

        List<QuotaDecision> decisions = quota.submit(guaranteed, at(10));

        assertThat(decisions).filteredOn(Preempted.class::isInstance).extracting(QuotaDecision::job).containsExactly(borrower[4], borrower[3]);
        assertThat(decisions).filteredOn(Preempted.class::isInstance).allSatisfy(preempted ->
                assertThat(((Preempted) preempted).by()).isEqualTo(guaranteed));
        assertThat(decisions).noneMatch(Admitted.class::isInstance);
        assertThat(decisions).filteredOn(Waiting.class::isInstance).as("told it reclaims, not first that it does not fit").containsExactly(new Waiting(guaranteed, queueOf("team-b"), 1, QuotaAdmission.RECLAIMING,
                "reclaiming borrowed capacity: waiting for a/a4, a/a3 to stop on their members"));
        // Their pods may still be terminating: they stay charged, and no node is above its max meanwhile.
        assertThat(quota.usage("root").amount("nvidia.com/gpu")).isEqualByComparingTo("8");
        assertThat(quota.isPreempting(borrower[4].uid())).isTrue();
        assertThat(quota.isAdmitted(guaranteed.uid())).isFalse();
    }

    /**
     * Two of team-b's jobs, each within its min alone but not together: only the first reclaims. Were both to, team-b
     * would borrow once both ran, and team-a's victims, within their min again, would take it back from the newer one,
     * and so on (the fault storm found two teams preempting each other's jobs for ever).
     */
    @Test
    void aJobIsWithinItsGuaranteeOnlyBesideTheReclaimersAlreadyWaitingSoReclaimsNeverPingPong() {
        teamABorrowsEverything();
        QuotaJob first = job("b", "b1", gpu("4"), 0, at(10));
        QuotaJob second = job("b", "b2", gpu("2"), 0, at(11));
        quota.submit(first, at(10));

        List<QuotaDecision> secondSubmitted = quota.submit(second, at(11));

        assertThat(secondSubmitted).noneMatch(Preempted.class::isInstance);
        assertThat(quota.isPreempting(borrower[2].uid())).isFalse();
        quota.stopped(borrower[4].uid(), at(12));
        assertThat(quota.stopped(borrower[3].uid(), at(13))).contains(new Admitted(first, "team-b"));

        // team-a is at its min again, team-b at its: nobody borrows, nobody reclaims, the victims and b2 wait.
        assertThat(quota.release(borrower[1].uid(), at(14))).as("a1 ends: a3 is admitted within team-a's min")
                .contains(new Admitted(borrower[3], "team-a")).noneMatch(Preempted.class::isInstance);
        assertThat(quota.isAdmitted(first.uid())).isTrue();
        assertThat(quota.usage("team-b").amount("nvidia.com/gpu")).isEqualByComparingTo("4");
        assertThat(quota.usage("team-a").amount("nvidia.com/gpu")).isEqualByComparingTo("4");
    }

    @Test
    void whatTheFirstVictimFreesIsHeldForTheReclaimerNotTakenBackByTheVictim() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));
        quota.submit(guaranteed, at(10));

        List<QuotaDecision> firstStopped = quota.stopped(borrower[4].uid(), at(11));

        assertThat(firstStopped).noneMatch(Admitted.class::isInstance);
        assertThat(firstStopped).contains(new Waiting(guaranteed, queueOf("team-b"), 1, QuotaAdmission.RECLAIMING,
                "reclaiming borrowed capacity: waiting for a/a3 to stop on its member"));
        assertThat(firstStopped).contains(new Waiting(borrower[4], queueOf("team-a"), 1, QuotaAdmission.HELD_FOR_RECLAIM,
                "root: nvidia.com/gpu 6/8 in use and 4 held for reclaimer b/b1, job needs 2"));

        List<QuotaDecision> secondStopped = quota.stopped(borrower[3].uid(), at(12));

        assertThat(secondStopped).contains(new Admitted(guaranteed, "team-b"));
        assertThat(quota.queue("team-a")).as("the victims wait again at their original positions").containsExactly(borrower[3], borrower[4]);
        assertThat(quota.usage("root").amount("nvidia.com/gpu")).isEqualByComparingTo("8");
        assertThat(quota.stopped(borrower[3].uid(), at(13))).as("a repeated stop changes nothing").isEmpty();
    }

    /**
     * A victim that a pass ranks before its reclaimer's queue (here: submitted before the job at the head of that queue)
     * finds what it freed held for the reclaimer. Were it admitted again, the reclaimer would not fit, preempt it again,
     * and the two would go round until both victims happened to stop in one evaluation (the fault storm saw a victim
     * admitted and preempted five times in two seconds).
     */
    @Test
    void whatAVictimFreesIsHeldForItsReclaimerWhicheverQueueAPassConsidersFirst() {
        teamABorrowsEverything();
        QuotaJob head = job("b", "head", gpu("8"), 0, at(5));
        quota.submit(head, at(5));
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));
        assertThat(quota.submit(guaranteed, at(10))).filteredOn(Preempted.class::isInstance).extracting(QuotaDecision::job)
                .containsExactly(borrower[4], borrower[3]);

        List<QuotaDecision> firstStopped = quota.stopped(borrower[4].uid(), at(11));

        assertThat(firstStopped).as("the victim is not taken back").noneMatch(Admitted.class::isInstance).noneMatch(Preempted.class::isInstance);
        assertThat(quota.standing(borrower[4].uid()).orElseThrow().reason()).isEqualTo(QuotaAdmission.HELD_FOR_RECLAIM);
        List<QuotaDecision> secondStopped = quota.stopped(borrower[3].uid(), at(12));
        assertThat(secondStopped).contains(new Admitted(guaranteed, "team-b")).noneMatch(Preempted.class::isInstance);
        assertThat(quota.usage("root").amount("nvidia.com/gpu")).isEqualByComparingTo("8");
    }

    @Test
    void aVictimThatFinishesWhileStoppingCountsAsStopped() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));
        quota.submit(guaranteed, at(10));
        quota.stopped(borrower[4].uid(), at(11));

        assertThat(quota.release(borrower[3].uid(), at(12))).contains(new Admitted(guaranteed, "team-b"));
        assertThat(quota.isAdmitted(borrower[3].uid()) || quota.isWaiting(borrower[3].uid())).isFalse();
    }

    @Test
    void aVictimGivenBackBeforePlacementHeardOfItsPreemptionHasStopped() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("2"), 0, at(10));
        quota.submit(guaranteed, at(10));

        List<QuotaDecision> decisions = quota.giveBack(borrower[4].uid(), at(11));

        assertThat(decisions).contains(new Admitted(guaranteed, "team-b"));
        assertThat(quota.standing(borrower[4].uid()).orElseThrow().notBefore()).as("no give-back backoff for a victim").isNull();
    }

    @Test
    void aJobBeingPreemptedIsNotTakenAgainByTheNextReclaimer() {
        teamABorrowsEverything();
        QuotaJob first = job("b", "b1", gpu("2"), 0, at(10));
        QuotaJob second = job("b", "b2", gpu("2"), 0, at(11));

        assertThat(quota.submit(first, at(10))).filteredOn(Preempted.class::isInstance).extracting(QuotaDecision::job).containsExactly(borrower[4]);
        assertThat(quota.submit(second, at(11))).filteredOn(Preempted.class::isInstance).extracting(QuotaDecision::job).containsExactly(borrower[3]);

        assertThat(quota.stopped(borrower[3].uid(), at(12))).contains(new Admitted(second, "team-b")).noneMatch(new Admitted(first, "team-b")::equals);
        assertThat(quota.stopped(borrower[4].uid(), at(13))).contains(new Admitted(first, "team-b"));
    }

    @Test
    void aReclaimerDeletedWhileItsVictimsStopLeavesThemToBeReadmitted() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("2"), 0, at(10));
        quota.submit(guaranteed, at(10));

        quota.release(guaranteed.uid(), at(11));

        assertThat(quota.stopped(borrower[4].uid(), at(12))).contains(new Admitted(borrower[4], "team-a"));
    }

    @Test
    void lowerPriorityBorrowersArePreemptedBeforeNewerOnes() {
        QuotaJob cheap = job("a", "cheap", gpu("2"), -5, T0);
        quota.submit(cheap, T0);
        for (int i = 2; i <= 4; i++) {
            quota.submit(job("a", "a" + i, gpu("2"), 0, at(i)), at(i));
        }

        List<QuotaDecision> decisions = quota.submit(job("b", "b1", gpu("2"), 0, at(10)), at(10));

        assertThat(decisions).filteredOn(Preempted.class::isInstance).extracting(QuotaDecision::job).containsExactly(cheap);
    }

    @Test
    void withReclaimNeverBorrowersKeepRunningAndTheGuaranteedJobWaits() {
        QuotaAdmission never = admission(tree("muster.dev/reclaim: Never", TREE));
        for (int i = 1; i <= 4; i++) {
            never.submit(job("a", "a" + i, gpu("2"), 0, at(i)), at(i));
        }
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));

        assertThat(never.submit(guaranteed, at(10))).singleElement().isInstanceOfSatisfying(Waiting.class, waiting ->
                assertThat(waiting.message()).isEqualTo("root: nvidia.com/gpu 8/8 in use, job needs 4"));
    }

    @Test
    void aJobBeyondItsOwnGuaranteeReclaimsNothing() {
        teamABorrowsEverything();

        assertThat(quota.submit(job("b", "greedy", gpu("6"), 0, at(10)), at(10))).noneMatch(Preempted.class::isInstance);
    }

    /**
     * A GPU guarantee guarantees GPUs: the cpu and memory a GPU job also asks for do not put it beyond its guarantee,
     * and a job that asks for no GPU has no guarantee to reclaim with.
     */
    @Test
    void aGuaranteeCoversTheResourcesItsMinNamesWhateverElseTheJobAsksFor() {
        QuotaAdmission mixed = admission(tree("", """
                name: root
                max: {nvidia.com/gpu: 8, cpu: 64, memory: 512Gi}
                min: {nvidia.com/gpu: 8}
                children:
                - {name: team-a, max: {nvidia.com/gpu: 8, cpu: 64, memory: 512Gi}, min: {nvidia.com/gpu: 4}, namespaces: [a]}
                - {name: team-b, max: {nvidia.com/gpu: 8, cpu: 64, memory: 512Gi}, min: {nvidia.com/gpu: 4}, namespaces: [b]}
                """));
        Map<String, String> gpuJob = Map.of("nvidia.com/gpu", "2", "cpu", "8", "memory", "64Gi");
        QuotaJob[] borrowers = new QuotaJob[5];
        for (int i = 1; i <= 4; i++) {
            borrowers[i] = job("a", "m" + i, gpuJob, 0, at(i));
            mixed.submit(borrowers[i], at(i));
        }

        assertThat(mixed.submit(job("b", "cpu-only", Map.of("cpu", "40"), 0, at(9)), at(9))).as("no GPU asked, no guarantee")
                .noneMatch(Preempted.class::isInstance);
        assertThat(mixed.submit(job("b", "trainer", gpuJob, 0, at(10)), at(10))).filteredOn(Preempted.class::isInstance)
                .extracting(QuotaDecision::job).containsExactly(borrowers[4]);
    }

    @Test
    void aRestoredCoreKnowsWhoIsBeingPreemptedAndWhoWaitsForThem() {
        teamABorrowsEverything();
        QuotaJob guaranteed = job("b", "b1", gpu("4"), 0, at(10));
        quota.submit(guaranteed, at(10));
        quota.stopped(borrower[4].uid(), at(11));
        List<JobStanding> standings = quota.admittedJobs().stream().map(job -> quota.standing(job.uid()).orElseThrow()).toList();
        List<JobStanding> waiting = List.of(quota.standing(guaranteed.uid()).orElseThrow(), quota.standing(borrower[4].uid()).orElseThrow());

        QuotaAdmission restored = QuotaAdmission.restore(quota.tree().orElseThrow(), QuotaSettings.defaults(),
                java.util.stream.Stream.concat(standings.stream(), waiting.stream()).toList());

        assertThat(restored.isPreempting(borrower[3].uid())).isTrue();
        assertThat(restored.stopped(borrower[3].uid(), at(12))).contains(new Admitted(guaranteed, "team-b"));
    }

    /**
     * Teams under a shared parent: the parent's guarantee is used by one team's borrowing, yet the other team's job is within
     * its guarantee, since a parent counts of each child only what the child uses within its own min.
     */
    @Test
    void aGuaranteeHoldsUnderAParentWhoseMinASiblingsBorrowingUses() {
        QuotaAdmission nested = admission(tree("", """
                name: root
                max: {nvidia.com/gpu: 100}
                min: {nvidia.com/gpu: 100}
                children:
                - {name: other, max: {nvidia.com/gpu: 84}, namespaces: [other]}
                - name: research
                  max: {nvidia.com/gpu: 16}
                  min: {nvidia.com/gpu: 16}
                  children:
                  - {name: team-a, max: {nvidia.com/gpu: 16}, min: {nvidia.com/gpu: 8}, namespaces: [a]}
                  - {name: team-b, max: {nvidia.com/gpu: 16}, min: {nvidia.com/gpu: 8}, namespaces: [b]}
                """));
        QuotaJob[] borrowers = new QuotaJob[5];
        for (int i = 1; i <= 4; i++) {
            borrowers[i] = job("a", "n" + i, gpu("4"), 0, at(i));
            nested.submit(borrowers[i], at(i));
        }

        assertThat(nested.submit(job("b", "guaranteed", gpu("8"), 0, at(10)), at(10))).filteredOn(Preempted.class::isInstance)
                .extracting(QuotaDecision::job).containsExactly(borrowers[4], borrowers[3]);
    }
}
