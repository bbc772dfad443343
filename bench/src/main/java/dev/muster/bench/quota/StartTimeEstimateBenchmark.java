package dev.muster.bench.quota;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QueueSummary;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.QuotaTree;
import dev.muster.queue.core.quota.StartTimeEstimates;
import dev.muster.queue.core.queueing.StartTimes;

/**
 * One recompute of every waiting job's start-time estimate: the quota core restored into a copy and driven to the
 * end of the queue in virtual time, on {@link QuotaAdmissionBenchmark}'s tree (100 leaves of 4 jobs, 400 running)
 * with {@code queued} jobs waiting, each running 10 minutes to 4 hours; as the queue service does it, no further than
 * {@link StartTimes#MAX_ENDS} job ends and {@link StartTimes.MAX_WEIGHED} jobs considered, or until every waiting job has its estimate.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class StartTimeEstimateBenchmark {

    @Param({"1000", "10000"})
    public int queued;

    /** Whether the replay goes on until every waiting job has its estimate, rather than stopping at the queue service's budget of ends. */
    @Param({"false", "true"})
    public boolean complete;

    private final Random random = new Random(2026);
    private final Map<String, Duration> durations = new HashMap<>();
    private final List<JobStanding> standings = new ArrayList<>();
    private QuotaTree tree;
    private Instant now = Instant.parse("2026-11-29T12:00:00Z");

    @Setup(Level.Trial)
    public void fillQueues() {
        tree = QuotaTree.of(QuotaAdmissionBenchmark.tree());
        QuotaAdmission quota = new QuotaAdmission(tree, QuotaSettings.defaults());
        List<QuotaJob> jobs = new ArrayList<>();
        for (long id = 0; quota.queueSummaries().stream().mapToInt(QueueSummary::depth).sum() < queued; id++) {
            ResourceList demand = ResourceList.of(ResourceNames.GPU, BigDecimal.valueOf(1 + random.nextInt(4)))
                    .plus(ResourceList.of(ResourceNames.CPU, BigDecimal.valueOf(8)));
            QuotaJob job = new QuotaJob("job-" + id, "team-" + random.nextInt(100), "job-" + id, demand, random.nextInt(3), now, id);
            durations.put(job.uid(), Duration.ofMinutes(10 + random.nextInt(230)));
            quota.submit(job, now);
            jobs.add(job);
            now = now.plusMillis(1);
        }
        jobs.forEach(job -> standings.add(quota.standing(job.uid()).orElseThrow()));
    }

    @Benchmark
    public int estimateEveryWaitingJob() {
        Map<String, StartTimeEstimates.Estimate> estimates = StartTimeEstimates.of(tree, QuotaSettings.defaults(), standings, now,
                job -> Optional.ofNullable(durations.get(job.uid())), standing -> Optional.of(standing.admittedAt()), Duration.ofDays(30),
                complete ? Integer.MAX_VALUE : StartTimes.MAX_ENDS, complete ? Long.MAX_VALUE : StartTimes.MAX_WEIGHED);
        if (complete && estimates.values().stream().anyMatch(estimate -> !estimate.known())) {
            throw new IllegalStateException("a waiting job has no estimate");
        }
        return estimates.size();
    }
}
