package dev.muster.queue.core.quota;

import static dev.muster.queue.core.quota.QuotaFixtures.T0;
import static dev.muster.queue.core.quota.QuotaFixtures.admission;
import static dev.muster.queue.core.quota.QuotaFixtures.gpu;
import static dev.muster.queue.core.quota.QuotaFixtures.job;
import static dev.muster.queue.core.quota.QuotaFixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Random;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.StartTimeEstimates.Estimate;

/** When a waiting job would start, were nothing new to arrive: the core itself, driven forward in virtual time. */
class StartTimeEstimatesTest {

    private static final String TWO_GPUS = """
            name: root
            max: {nvidia.com/gpu: 2}
            children:
            - {name: team-a, namespaces: [team-a]}
            - {name: team-b, namespaces: [team-b]}
            """;
    private static final Duration HORIZON = Duration.ofDays(7);

    private final QuotaAdmission quota = admission(tree("", TWO_GPUS));
    private final Map<String, Duration> durations = new HashMap<>();
    private final List<QuotaJob> jobs = new ArrayList<>();

    private QuotaJob submit(String namespace, String name, Instant at, Duration duration) {
        QuotaJob job = job(namespace, name, gpu("1"), 0, at);
        quota.submit(job, at);
        jobs.add(job);
        if (duration != null) {
            durations.put(job.uid(), duration);
        }
        return job;
    }

    private Map<String, Estimate> estimates(Instant now) {
        return StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(),
                jobs.stream().map(job -> quota.standing(job.uid()).orElseThrow()).toList(), now,
                job -> Optional.ofNullable(durations.get(job.uid())), HORIZON);
    }

    /** The estimate follows the core's own order: at 17:10 team-b, which borrows nothing, goes before team-a's older job. */
    @Test
    void eachWaitingJobStartsWhenTheJobsAheadOfItEndInTheOrderTheCoreServesThem() {
        submit("team-a", "running-1", T0.minus(Duration.ofMinutes(5)), Duration.ofMinutes(15));
        submit("team-a", "running-2", T0, Duration.ofMinutes(20));
        QuotaJob first = submit("team-a", "waiting-1", T0.plusSeconds(1), Duration.ofMinutes(30));
        QuotaJob second = submit("team-b", "waiting-2", T0.plusSeconds(2), Duration.ofMinutes(30));
        QuotaJob third = submit("team-a", "waiting-3", T0.plusSeconds(3), Duration.ofMinutes(30));

        Map<String, Estimate> estimates = estimates(T0.plusSeconds(5));

        assertThat(estimates).containsOnlyKeys(first.uid(), second.uid(), third.uid());
        assertThat(estimates.get(second.uid())).isEqualTo(new Estimate(T0.plus(Duration.ofMinutes(10)), 1, null));
        assertThat(estimates.get(first.uid())).isEqualTo(new Estimate(T0.plus(Duration.ofMinutes(20)), 2, null));
        assertThat(estimates.get(third.uid())).as("once team-b's job has run its 30 minutes").isEqualTo(new Estimate(T0.plus(Duration.ofMinutes(40)), 3, null));
    }

    @Test
    void jobsBehindRunningJobsOfUnknownDurationHaveNoEstimateAndSayWhy() {
        submit("team-a", "running-1", T0, null);
        submit("team-a", "running-2", T0, null);
        QuotaJob waiting = submit("team-a", "waiting", T0.plusSeconds(1), Duration.ofMinutes(30));

        Estimate estimate = estimates(T0.plusSeconds(5)).get(waiting.uid());

        assertThat(estimate.known()).isFalse();
        assertThat(estimate.why()).isEqualTo("2 jobs run with no expected duration ahead of it");
    }

    @Test
    void aDeepQueueIsEstimatedAsFarAsItsBudgetOfJobEndsReachesAndTheRestSaySo() {
        submit("team-a", "running-1", T0, Duration.ofMinutes(10));
        submit("team-a", "running-2", T0, Duration.ofMinutes(20));
        List<QuotaJob> waiting = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            waiting.add(submit("team-a", "waiting-" + i, T0.plusSeconds(1 + i), Duration.ofMinutes(30)));
        }

        Map<String, Estimate> estimates = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(),
                jobs.stream().map(job -> quota.standing(job.uid()).orElseThrow()).toList(), T0.plusSeconds(10),
                job -> Optional.ofNullable(durations.get(job.uid())), HORIZON, 2);

        assertThat(waiting.subList(0, 2)).allSatisfy(job -> assertThat(estimates.get(job.uid()).known()).isTrue());
        assertThat(waiting.subList(2, 5)).allSatisfy(job -> assertThat(estimates.get(job.uid()).why())
                .isEqualTo("more than 2 jobs end before it; the estimate looks no further"));
    }

    /**
     * A queue of jobs that each ask a demand of their own, none less than another of every resource, makes every check for
     * a pass's end long (one look per such demand): those looks count against the budget beside the jobs considered, so
     * such a queue cannot keep a replay going for long.
     */
    @Test
    void aQueueOfDistinctDemandsIsEstimatedAsFarAsTheBudgetOfWorkReachesAndTheRestSaySo() {
        submit("team-a", "running-1", T0, Duration.ofMinutes(10));
        submit("team-a", "running-2", T0, Duration.ofMinutes(20));
        List<QuotaJob> waiting = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            QuotaJob job = job("team-a", "waiting-" + i, Map.of("nvidia.com/gpu", "1", "cpu", (i + 1) + "m", "memory", (200 - i) + "Mi"), 0,
                    T0.plusSeconds(1 + i));
            quota.submit(job, job.submittedAt());
            jobs.add(job);
            durations.put(job.uid(), Duration.ofMinutes(30));
            waiting.add(job);
        }
        List<JobStanding> standings = jobs.stream().map(job -> quota.standing(job.uid()).orElseThrow()).toList();

        Map<String, Estimate> unbounded = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(), standings, T0.plusSeconds(300),
                job -> Optional.ofNullable(durations.get(job.uid())), standing -> Optional.of(standing.admittedAt()), Duration.ofDays(30),
                Integer.MAX_VALUE, Long.MAX_VALUE);
        Map<String, Estimate> bounded = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(), standings, T0.plusSeconds(300),
                job -> Optional.ofNullable(durations.get(job.uid())), standing -> Optional.of(standing.admittedAt()), Duration.ofDays(30),
                Integer.MAX_VALUE, 10_000);

        assertThat(waiting).allSatisfy(job -> assertThat(unbounded.get(job.uid()).known()).isTrue());
        List<Estimate> cut = waiting.stream().map(job -> bounded.get(job.uid())).filter(estimate -> !estimate.known()).toList();
        assertThat(cut).as("jobs the bounded replay did not reach").isNotEmpty()
                .allSatisfy(estimate -> assertThat(estimate.why()).matches("more than \\d+ jobs end before it; the estimate looks no further"));
        assertThat(waiting).filteredOn(job -> bounded.get(job.uid()).known())
                .allSatisfy(job -> assertThat(bounded.get(job.uid())).isEqualTo(unbounded.get(job.uid())));
    }

    @Test
    void estimatingChangesNothingInTheCoreItReads() {
        submit("team-a", "running-1", T0, Duration.ofMinutes(10));
        submit("team-a", "running-2", T0, Duration.ofMinutes(10));
        QuotaJob waiting = submit("team-a", "waiting", T0.plusSeconds(1), Duration.ofMinutes(30));
        quota.drainChanges();

        estimates(T0.plusSeconds(5));

        assertThat(quota.drainChanges()).isEmpty();
        assertThat(quota.standing(waiting.uid()).orElseThrow().admitted()).isFalse();
    }

    /**
     * With exact durations and nothing new arriving, each estimate is the start the core then actually gives: the
     * core driven job end by job end, apart from the estimator. A replay that gathers the ends beyond its first hour
     * gives the same starts within that hour.
     */
    @Property(tries = 100)
    void theEstimateIsTheActualStartWhenNothingNewArrives(@ForAll long seed) {
        Random random = new Random(seed);
        QuotaAdmission actual = admission(tree("", TWO_GPUS.replace("nvidia.com/gpu: 2", "nvidia.com/gpu: " + (2 + random.nextInt(6)))));
        Map<String, Duration> exact = new HashMap<>();
        List<QuotaJob> all = new ArrayList<>();
        Map<String, Instant> started = new HashMap<>();
        PriorityQueue<Map.Entry<Instant, String>> ends = new PriorityQueue<>(Map.Entry.comparingByKey());
        Instant now = T0;
        int count = 5 + random.nextInt(20);
        for (int i = 0; i < count; i++) {
            QuotaJob job = job(random.nextBoolean() ? "team-a" : "team-b", "job-" + i, gpu(Integer.toString(1 + random.nextInt(2))),
                    random.nextInt(3) * 10, now);
            exact.put(job.uid(), Duration.ofSeconds(60 + random.nextInt(3600)));
            all.add(job);
            record(actual.submit(job, now), now, started, exact, ends);
            now = now.plusSeconds(random.nextInt(5));
        }
        List<JobStanding> standings = all.stream().map(job -> actual.standing(job.uid()).orElseThrow()).toList();
        Map<String, Estimate> endByEnd = StartTimeEstimates.of(actual.tree().orElseThrow(), QuotaSettings.defaults(), standings, now,
                job -> Optional.of(exact.get(job.uid())), standing -> Optional.of(standing.admittedAt()), HORIZON, Integer.MAX_VALUE,
                Long.MAX_VALUE, HORIZON);
        Map<String, Estimate> gathered = StartTimeEstimates.of(actual.tree().orElseThrow(), QuotaSettings.defaults(), standings, now,
                job -> Optional.of(exact.get(job.uid())), HORIZON);
        while (!ends.isEmpty()) {
            Map.Entry<Instant, String> end = ends.poll();
            Instant at = end.getKey().isBefore(now) ? now : end.getKey();
            record(actual.release(end.getValue(), at), at, started, exact, ends);
        }
        endByEnd.forEach((uid, estimate) -> assertThat(estimate.start()).as("job %s", uid).isEqualTo(started.get(uid)));
        Instant exactUntil = now.plus(StartTimeEstimates.EXACT_WITHIN);
        gathered.forEach((uid, estimate) -> {
            if (!started.get(uid).isAfter(exactUntil)) {
                assertThat(estimate.start()).as("job %s, within the first hour", uid).isEqualTo(started.get(uid));
            }
        });
    }

    /**
     * Beyond the first hour the ends close together are replayed as one pass: a queue of 400 jobs about two days deep
     * is estimated in a few hundred passes, each start close to the one a replay end by end gives. Two slots make the
     * worst case: a job started late by its gathering ends late, and the one after it in the same slot starts later still.
     */
    @Test
    void aDeepQueueFarAheadIsEstimatedWithEndsGatheredCloseToTheReplayEndByEnd() {
        Random random = new Random(7);
        submit("team-a", "running-1", T0, Duration.ofMinutes(10));
        submit("team-a", "running-2", T0, Duration.ofMinutes(25));
        for (int i = 0; i < 400; i++) {
            submit(i % 2 == 0 ? "team-a" : "team-b", "waiting-" + i, T0.plusSeconds(1 + i), Duration.ofMinutes(10 + random.nextInt(10)));
        }
        List<JobStanding> standings = jobs.stream().map(job -> quota.standing(job.uid()).orElseThrow()).toList();
        Instant now = T0.plusSeconds(500);

        Map<String, Estimate> endByEnd = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(), standings, now,
                job -> Optional.ofNullable(durations.get(job.uid())), standing -> Optional.of(standing.admittedAt()), Duration.ofDays(30),
                Integer.MAX_VALUE, Long.MAX_VALUE, Duration.ofDays(30));
        Map<String, Estimate> gathered = StartTimeEstimates.of(quota.tree().orElseThrow(), QuotaSettings.defaults(), standings, now,
                job -> Optional.ofNullable(durations.get(job.uid())), Duration.ofDays(30));

        assertThat(gathered).hasSameSizeAs(endByEnd).allSatisfy((uid, estimate) -> {
            Instant exact = endByEnd.get(uid).start();
            Duration lead = Duration.between(now, exact);
            assertThat(Duration.between(exact, estimate.start()).abs()).as("job %s, %s ahead", uid, lead)
                    .isLessThanOrEqualTo(lead.dividedBy(8));
        });
        assertThat(Duration.between(now, endByEnd.values().stream().map(Estimate::start).max(Instant::compareTo).orElseThrow()))
                .as("the deepest job's wait").isGreaterThan(Duration.ofHours(40));
    }

    private static void record(List<QuotaDecision> decisions, Instant now, Map<String, Instant> started, Map<String, Duration> exact,
                               PriorityQueue<Map.Entry<Instant, String>> ends) {
        for (QuotaDecision decision : decisions) {
            if (decision instanceof Admitted admitted) {
                started.put(admitted.job().uid(), now);
                ends.add(Map.entry(now.plus(exact.get(admitted.job().uid())), admitted.job().uid()));
            }
        }
    }
}
