package dev.muster.queue.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import dev.muster.queue.core.quota.QuotaDecision.Admitted;

/**
 * Dominant-resource fair sharing, checked against its definition worked out here apart from the core: whenever
 * capacity frees, the sibling it goes to (unless its job is within its guarantee) had the lowest weighted dominant
 * share among the siblings with jobs waiting that would borrow.
 */
class FairSharingProperties {

    private static final double[] WEIGHTS = {0, 0.5, 1, 1, 2, 3};

    @Property(tries = 200)
    void noSiblingIsServedOutOfDominantShareOrder(@ForAll @IntRange(min = 2, max = 4) int teams, @ForAll @IntRange(min = 4, max = 16) int gpus,
                                                 @ForAll long seed) {
        Random random = new Random(seed);
        Map<String, Double> weight = new HashMap<>();
        Map<String, Integer> min = new HashMap<>();
        StringBuilder children = new StringBuilder();
        List<String> weights = new ArrayList<>();
        int guaranteed = 0;
        for (int i = 0; i < teams; i++) {
            String team = "team-" + i;
            weight.put(team, WEIGHTS[random.nextInt(WEIGHTS.length)]);
            min.put(team, Math.min(random.nextInt(3), gpus / teams));
            guaranteed += min.get(team);
            weights.add(team + "=" + weight.get(team));
            children.append("- {name: ").append(team).append(", min: {nvidia.com/gpu: ").append(min.get(team)).append("}, namespaces: [")
                    .append(team).append("]}\n");
        }
        assertThat(guaranteed).isLessThanOrEqualTo(gpus);
        QuotaAdmission quota = QuotaFixtures.admission(QuotaFixtures.tree(ReclaimPolicy.ANNOTATION + ": Never, " + FairSharing.WEIGHTS_ANNOTATION
                + ": \"" + String.join(", ", weights) + "\"", "name: root\nmax: {nvidia.com/gpu: " + gpus + "}\nchildren:\n" + children));

        Map<String, String> teamOf = new HashMap<>();
        Map<String, Integer> waiting = new HashMap<>();
        List<String> running = new ArrayList<>();
        Instant now = QuotaFixtures.T0;
        for (int i = 0; i < gpus * teams * 2; i++) {
            String team = "team-" + random.nextInt(teams);
            QuotaJob job = QuotaFixtures.job(team, "job-" + i, QuotaFixtures.gpu("1"), random.nextInt(3) * 10, now);
            teamOf.put(job.uid(), team);
            waiting.merge(team, 1, Integer::sum);
            check(quota.submit(job, now), quota, weight, min, gpus, waiting, teamOf, running);
            now = now.plusSeconds(1);
        }
        while (!running.isEmpty()) {
            String done = running.remove(random.nextInt(running.size()));
            check(quota.release(done, now), quota, weight, min, gpus, waiting, teamOf, running);
            now = now.plusSeconds(1);
        }
    }

    /**
     * Under fair-sharing preemption, teams that flood the fleet in turn end where the strategy allows no further
     * preemption (a team with jobs waiting, with one more, would be above another without one), reach it in a bounded
     * number of preemptions, and never hold more than the fleet.
     */
    @Property(tries = 100)
    void fairSharePreemptionSettlesWhereNoTeamMayTakeMore(@ForAll @IntRange(min = 2, max = 3) int teams, @ForAll @IntRange(min = 4, max = 12) int gpus,
                                                        @ForAll long seed) {
        Random random = new Random(seed);
        Map<String, Double> weight = new HashMap<>();
        StringBuilder children = new StringBuilder();
        List<String> weights = new ArrayList<>();
        for (int i = 0; i < teams; i++) {
            String team = "team-" + i;
            weight.put(team, WEIGHTS[1 + random.nextInt(WEIGHTS.length - 1)]);
            weights.add(team + "=" + weight.get(team));
            children.append("- {name: ").append(team).append(", namespaces: [").append(team).append("]}\n");
        }
        QuotaAdmission quota = QuotaFixtures.admission(QuotaFixtures.tree(FairSharing.PREEMPTION_ANNOTATION + ": LessThanOrEqualToFinalShare, "
                + FairSharing.WEIGHTS_ANNOTATION + ": \"" + String.join(", ", weights) + "\"", "name: root\nmax: {nvidia.com/gpu: " + gpus
                + "}\nchildren:\n" + children));
        Instant now = QuotaFixtures.T0;
        int preemptions = 0;
        Map<String, Integer> submitted = new HashMap<>();
        for (int round = 0; round < teams; round++) {
            // One team after another floods the fleet, each preemption carried out (the victim stops) before the next job.
            String team = "team-" + round;
            for (int i = 0; i < gpus + 2; i++) {
                QuotaJob job = QuotaFixtures.job(team, "job-" + i, QuotaFixtures.gpu("1"), 0, now);
                submitted.merge(team, 1, Integer::sum);
                List<QuotaDecision> next = quota.submit(job, now);
                while (next.stream().anyMatch(QuotaDecision.Preempted.class::isInstance)) {
                    List<QuotaDecision> after = new ArrayList<>();
                    for (QuotaDecision decision : next) {
                        if (decision instanceof QuotaDecision.Preempted preempted) {
                            preemptions++;
                            after.addAll(quota.stopped(preempted.job().uid(), now));
                        }
                    }
                    next = after;
                    assertThat(preemptions).as("preemptions, bounded").isLessThanOrEqualTo(gpus * teams);
                }
                now = now.plusSeconds(1);
            }
        }
        Map<String, Integer> used = new HashMap<>();
        weight.keySet().forEach(team -> used.put(team, quota.usage(team).amount("nvidia.com/gpu").intValue()));
        assertThat(used.values().stream().mapToInt(Integer::intValue).sum()).isLessThanOrEqualTo(gpus);
        for (String team : weight.keySet()) {
            for (String other : weight.keySet()) {
                boolean waits = submitted.get(team) > used.get(team);
                if (!team.equals(other) && waits && used.get(other) > 0) {
                    assertThat(weightedShare(used.get(team) + 1, 0, gpus, weight.get(team)))
                            .as("%s waits at %s while it could take from %s (weights %s)", team, used, other, weight)
                            .isGreaterThan(weightedShare(used.get(other) - 1, 0, gpus, weight.get(other)) + 1e-9);
                }
            }
        }
    }

    /** Each admission of the decisions, in turn, against the shares of the moment before it. */
    private static void check(List<QuotaDecision> decisions, QuotaAdmission quota, Map<String, Double> weight, Map<String, Integer> min, int gpus,
                              Map<String, Integer> waiting, Map<String, String> teamOf, List<String> running) {
        Map<String, Integer> used = new HashMap<>();
        for (String team : weight.keySet()) {
            used.put(team, quota.usage(team).amount("nvidia.com/gpu").intValue());
        }
        // The decisions are already charged: take them off to see the moment before the first.
        List<Admitted> admitted = decisions.stream().filter(Admitted.class::isInstance).map(Admitted.class::cast).toList();
        admitted.forEach(decision -> used.merge(teamOf.get(decision.job().uid()), -1, Integer::sum));
        for (Admitted decision : admitted) {
            String team = teamOf.get(decision.job().uid());
            if (used.get(team) >= min.get(team)) {
                double share = weightedShare(used.get(team), min.get(team), gpus, weight.get(team));
                for (String other : weight.keySet()) {
                    if (!other.equals(team) && waiting.getOrDefault(other, 0) > 0 && used.get(other) >= min.get(other)) {
                        assertThat(share).as("%s served at %s GPUs while %s waits at %s (weights %s, mins %s)", team, used, other, used.get(other),
                                weight, min).isLessThanOrEqualTo(weightedShare(used.get(other), min.get(other), gpus, weight.get(other)) + 1e-9);
                    }
                }
            }
            used.merge(team, 1, Integer::sum);
            waiting.merge(team, -1, Integer::sum);
            running.add(decision.job().uid());
        }
    }

    private static double weightedShare(int used, int min, int gpus, double weight) {
        double share = Math.max(0, used - min) / (double) gpus;
        return weight == 0 ? Double.POSITIVE_INFINITY : share / weight;
    }
}
