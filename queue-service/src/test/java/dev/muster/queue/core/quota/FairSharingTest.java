package dev.muster.queue.core.quota;

import static dev.muster.queue.core.quota.QuotaFixtures.T0;
import static dev.muster.queue.core.quota.QuotaFixtures.admission;
import static dev.muster.queue.core.quota.QuotaFixtures.gpu;
import static dev.muster.queue.core.quota.QuotaFixtures.job;
import static dev.muster.queue.core.quota.QuotaFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.validation.InvalidObjectException;
import dev.muster.queue.core.quota.QuotaDecision.Admitted;

/** Siblings share what they borrow by weighted dominant share; within a queue the order stays priority then submission. */
class FairSharingTest {

    /** Eight GPUs; team-a and team-b are each guaranteed two, team-c nothing. */
    private static final String TEAMS = """
            name: root
            max: {nvidia.com/gpu: 8}
            children:
            - {name: team-a, min: {nvidia.com/gpu: 2}, namespaces: [team-a]}
            - {name: team-b, min: {nvidia.com/gpu: 2}, namespaces: [team-b]}
            - {name: team-c, namespaces: [team-c]}
            """;

    private static List<QuotaJob> submitAll(QuotaAdmission quota, String namespace, int count, int priority, int second) {
        List<QuotaJob> jobs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            QuotaJob job = job(namespace, "job-" + second + "-" + i, gpu("1"), priority, T0.plusSeconds(second));
            quota.submit(job, T0.plusSeconds(second));
            jobs.add(job);
        }
        return jobs;
    }

    private static List<String> admittedNamespaces(List<QuotaDecision> decisions) {
        return decisions.stream().filter(Admitted.class::isInstance).map(decision -> ((Admitted) decision).job().namespace()).toList();
    }

    @Test
    void capacityThatFreesGoesToTheSiblingThatBorrowsLessBeforeAHigherPriorityJobOfOneThatBorrowsMore() {
        QuotaAdmission quota = admission(tree("", TEAMS));
        List<QuotaJob> teamA = submitAll(quota, "team-a", 6, 0, 1);
        submitAll(quota, "team-b", 2, 0, 2);
        submitAll(quota, "team-a", 1, 100, 3);
        submitAll(quota, "team-b", 1, 0, 4);

        List<QuotaDecision> decisions = quota.release(teamA.get(0).uid(), T0.plusSeconds(10));

        assertThat(admittedNamespaces(decisions)).as("team-b borrows nothing yet, team-a three GPUs of eight").containsExactly("team-b");
    }

    @Test
    void disabledItServesByPriorityThenSubmissionAcrossQueuesAsBefore() {
        QuotaAdmission quota = admission(tree(FairSharing.ANNOTATION + ": Disabled", TEAMS));
        List<QuotaJob> teamA = submitAll(quota, "team-a", 6, 0, 1);
        submitAll(quota, "team-b", 2, 0, 2);
        submitAll(quota, "team-a", 1, 100, 3);
        submitAll(quota, "team-b", 1, 0, 4);

        List<QuotaDecision> decisions = quota.release(teamA.get(0).uid(), T0.plusSeconds(10));

        assertThat(admittedNamespaces(decisions)).containsExactly("team-a");
    }

    @Test
    void whatTheSiblingsBorrowIsSplitInTheRatioOfTheirWeights() {
        QuotaAdmission quota = admission(tree(FairSharing.WEIGHTS_ANNOTATION + ": \"team-a=2, team-b=1\"", TEAMS.replace(", min: {nvidia.com/gpu: 2}", "")));
        List<QuotaJob> teamC = submitAll(quota, "team-c", 8, 0, 1);
        submitAll(quota, "team-b", 10, 0, 2);
        submitAll(quota, "team-a", 10, 0, 3);

        List<String> admitted = new ArrayList<>();
        for (QuotaJob done : teamC) {
            admitted.addAll(admittedNamespaces(quota.release(done.uid(), T0.plusSeconds(10))));
        }

        assertThat(admitted).hasSize(8);
        assertThat(admitted.stream().filter("team-a"::equals).count()).as("team-a's GPUs of eight").isEqualTo(5);
        assertThat(quota.usage("team-a").amount("nvidia.com/gpu")).isEqualByComparingTo("5");
        assertThat(quota.usage("team-b").amount("nvidia.com/gpu")).isEqualByComparingTo("3");
        assertThat(quota.usageReport()).filteredOn(row -> row.resource().equals("nvidia.com/gpu") || row.resource().isEmpty())
                .extracting(row -> row.node() + " " + row.weight() + " " + row.share() + " " + row.fairShare())
                .as("each node's weight, dominant share and fair share, as kubectl muster queues shows them")
                .containsExactly("root   ", "root/team-a 2 62.5% 50%", "root/team-b 1 37.5% 25%", "root/team-c 1 0% 25%");
        assertThat(quota.usageReport()).filteredOn(row -> row.node().equals("root/team-c")).singleElement()
                .as("a node that limits, guarantees and uses nothing still has its row").satisfies(row -> {
                    assertThat(row.resource()).isEmpty();
                    assertThat(row.waiting()).isZero();
                });
    }

    @Test
    void aWeightOfZeroBorrowsOnlyWhatNoOtherSiblingWants() {
        QuotaAdmission quota = admission(tree(ReclaimPolicy.ANNOTATION + ": Never, " + FairSharing.WEIGHTS_ANNOTATION + ": team-c=0", TEAMS));
        List<QuotaJob> teamA = submitAll(quota, "team-a", 8, 0, 1);
        submitAll(quota, "team-c", 3, 100, 2);
        submitAll(quota, "team-b", 3, 0, 3);

        List<String> admitted = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            admitted.addAll(admittedNamespaces(quota.release(teamA.get(i).uid(), T0.plusSeconds(10 + i))));
        }

        assertThat(admitted).as("team-b's two within its min, its borrower, then team-c").containsExactly("team-b", "team-b", "team-b", "team-c");
    }

    @Test
    void withinAQueueTheOrderStaysPriorityThenSubmission() {
        QuotaAdmission quota = admission(tree("", TEAMS));
        List<QuotaJob> teamB = submitAll(quota, "team-b", 8, 0, 1);
        QuotaJob early = submitAll(quota, "team-c", 1, 0, 2).get(0);
        QuotaJob urgent = submitAll(quota, "team-c", 1, 50, 3).get(0);

        List<QuotaDecision> decisions = quota.release(teamB.get(0).uid(), T0.plusSeconds(10));

        assertThat(decisions).filteredOn(Admitted.class::isInstance).extracting(decision -> ((Admitted) decision).job()).containsExactly(urgent);
        assertThat(quota.standing(early.uid())).isPresent();
    }

    /** Carries out every preemption the decisions make (the victims stop on their members), until none is made. */
    private static List<QuotaDecision> stopEveryVictim(QuotaAdmission quota, List<QuotaDecision> decisions, int second) {
        List<QuotaDecision> all = new ArrayList<>(decisions);
        List<QuotaDecision> next = decisions;
        while (next.stream().anyMatch(QuotaDecision.Preempted.class::isInstance)) {
            List<QuotaDecision> after = new ArrayList<>();
            for (QuotaDecision decision : next) {
                if (decision instanceof QuotaDecision.Preempted preempted) {
                    after.addAll(quota.stopped(preempted.job().uid(), T0.plusSeconds(second)));
                }
            }
            all.addAll(after);
            next = after;
        }
        return all;
    }

    @Test
    void withFairSharePreemptionABorrowerBelowItsShareTakesFromOneAboveUntilTheSharesMeet() {
        QuotaAdmission quota = admission(tree(FairSharing.PREEMPTION_ANNOTATION + ": LessThanOrEqualToFinalShare",
                TEAMS.replace(", min: {nvidia.com/gpu: 2}", "")));
        submitAll(quota, "team-a", 8, 0, 1);

        List<QuotaDecision> decisions = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            QuotaJob job = job("team-b", "b-" + i, gpu("1"), 0, T0.plusSeconds(10 + i));
            decisions.addAll(stopEveryVictim(quota, quota.submit(job, T0.plusSeconds(10 + i)), 10 + i));
        }

        assertThat(decisions).filteredOn(QuotaDecision.Preempted.class::isInstance).hasSize(4).allSatisfy(decision ->
                assertThat(((QuotaDecision.Preempted) decision).message()).contains("(fair-sharing preemption)"));
        assertThat(quota.usage("team-a").amount("nvidia.com/gpu")).as("taken down to team-b's share, no further").isEqualByComparingTo("4");
        assertThat(quota.usage("team-b").amount("nvidia.com/gpu")).isEqualByComparingTo("4");
    }

    /**
     * Two borrowers whose shares are set by GPUs other jobs of theirs hold, and which contest CPUs: their shares tie
     * whichever of the two CPU jobs runs, so neither may preempt the other. They used to take the CPUs back and forth for
     * ever.
     */
    @Test
    void borrowersWhoseSharesTieOnAResourceTheContestedJobsDoNotAskNeverTakeTheSameCapacityBackAndForth() {
        QuotaAdmission quota = admission(tree(FairSharing.PREEMPTION_ANNOTATION + ": LessThanOrEqualToFinalShare", """
                name: root
                max: {cpu: 60, nvidia.com/gpu: 5}
                children:
                - {name: team-a, min: {cpu: 20, nvidia.com/gpu: 1}, namespaces: [team-a]}
                - {name: team-b, min: {cpu: 20, nvidia.com/gpu: 1}, namespaces: [team-b]}
                - {name: team-c, min: {cpu: 20, nvidia.com/gpu: 1}, namespaces: [team-c]}
                """));
        quota.submit(job("team-a", "gpus", gpu("2"), 0, T0), T0);
        quota.submit(job("team-b", "gpus", gpu("2"), 0, T0), T0);
        quota.submit(job("team-c", "cpus", Map.of("cpu", "13"), 0, T0), T0);
        QuotaJob first = job("team-a", "cpus", Map.of("cpu", "24"), 0, T0.plusSeconds(1));
        quota.submit(first, T0.plusSeconds(1));
        QuotaJob second = job("team-b", "cpus", Map.of("cpu", "24"), 0, T0.plusSeconds(2));

        List<QuotaDecision> decisions = new ArrayList<>(quota.submit(second, T0.plusSeconds(2)));
        List<QuotaDecision> next = decisions;
        for (int round = 0; round < 10 && next.stream().anyMatch(QuotaDecision.Preempted.class::isInstance); round++) {
            List<QuotaDecision> after = new ArrayList<>();
            for (QuotaDecision decision : next) {
                if (decision instanceof QuotaDecision.Preempted preempted) {
                    after.addAll(quota.stopped(preempted.job().uid(), T0.plusSeconds(3 + round)));
                }
            }
            decisions.addAll(after);
            next = after;
        }

        assertThat(decisions).noneMatch(QuotaDecision.Preempted.class::isInstance);
        assertThat(quota.isAdmitted(first.uid())).isTrue();
        assertThat(quota.isWaiting(second.uid())).isTrue();
    }

    @Test
    void withoutFairSharePreemptionABorrowerWaitsForCapacityToFree() {
        QuotaAdmission quota = admission(tree("", TEAMS.replace(", min: {nvidia.com/gpu: 2}", "")));
        submitAll(quota, "team-a", 8, 0, 1);

        List<QuotaDecision> decisions = quota.submit(job("team-b", "b", gpu("1"), 0, T0.plusSeconds(10)), T0.plusSeconds(10));

        assertThat(decisions).noneMatch(QuotaDecision.Preempted.class::isInstance);
    }

    @Test
    void badAnnotationsRefuseTheTreeSayingWhatIsWrong() {
        assertThatThrownBy(() -> tree(FairSharing.ANNOTATION + ": Disabled, " + FairSharing.PREEMPTION_ANNOTATION + ": LessThanOrEqualToFinalShare", TEAMS))
                .hasMessageContaining("muster.dev/fair-sharing-preemption: needs fair sharing, which muster.dev/fair-sharing disables");
        assertThatThrownBy(() -> tree(FairSharing.PREEMPTION_ANNOTATION + ": Always", TEAMS))
                .hasMessageContaining("muster.dev/fair-sharing-preemption: must be Never or LessThanOrEqualToFinalShare, got \"Always\"");
        assertThatThrownBy(() -> tree(FairSharing.ANNOTATION + ": \"Off\", " + FairSharing.WEIGHTS_ANNOTATION
                + ": \"team-a=2, team-x=1, team-b=-1, team-c, team-a=3\"", TEAMS))
                .isInstanceOf(InvalidObjectException.class)
                .hasMessageContaining("muster.dev/fair-sharing: must be DominantResource or Disabled, got \"Off\"")
                .hasMessageContaining("names no node of the tree: \"team-x\"")
                .hasMessageContaining("the weight of team-b must be a number from 0 to 1000, got \"-1\"")
                .hasMessageContaining("each entry must be node=weight, e.g. team-a=2, got \"team-c\"")
                .hasMessageContaining("names team-a twice");
    }
}
