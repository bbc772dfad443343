package dev.muster.bench.quota;

import java.math.BigDecimal;
import java.time.Duration;
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

import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.QuotaTree;

/**
 * Quota admission decisions with a deep queue: a tree of 3 levels (root, 10 departments, 100 team leaves,
 * each leaf 8 GPUs and 4 jobs at most) and {@code queued} jobs waiting across the leaves. Two paths, each
 * keeping the population steady: a job submitted (and withdrawn), and a job completing, whose release
 * re-evaluates the queues and admits what now fits (then a new job arrives in its place).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class QuotaAdmissionBenchmark {

    private static final int DEPARTMENTS = 10;
    private static final int TEAMS = 10;

    /** Jobs waiting in the queues. */
    @Param({"10000"})
    public int queued;

    private QuotaLoad load;

    @Setup(Level.Trial)
    public void fillQueues() {
        load = new QuotaLoad(new QuotaAdmission(QuotaTree.of(tree()), QuotaSettings.defaults()), Duration.ofMillis(1),
                QuotaAdmissionBenchmark::nextJob);
        load.fill(queued);
    }

    /** A job arrives and waits (its leaf is full); withdrawn again, so the queue stays as deep. */
    @Benchmark
    public int submitToAFullLeaf() {
        QuotaJob job = load.nextJob();
        int decisions = load.quota.submit(job, load.tick()).size();
        return decisions + load.quota.release(job.uid(), load.tick()).size();
    }

    /** An admitted job completes: its quota is released and the queues re-evaluated; a new job takes its place in the queue. */
    @Benchmark
    public int completion() {
        return load.completeAndReplace();
    }

    private static QuotaJob nextJob(QuotaLoad load) {
        long id = load.nextNumber();
        int team = load.random.nextInt(DEPARTMENTS * TEAMS);
        ResourceList demand = ResourceList.of(ResourceNames.GPU, BigDecimal.valueOf(1 + load.random.nextInt(4)))
                .plus(ResourceList.of(ResourceNames.CPU, BigDecimal.valueOf(8)));
        return new QuotaJob("job-" + id, "team-" + team, "job-" + id, demand, load.random.nextInt(3), load.now(), id);
    }

    /** Root 400 GPUs, 10 departments of 64, 100 team leaves of 8 GPUs and 4 jobs each. */
    static ElasticQuotaTree tree() {
        StringBuilder departments = new StringBuilder();
        for (int d = 0; d < DEPARTMENTS; d++) {
            departments.append("    - name: department-").append(d).append('\n')
                    .append("      max: {nvidia.com/gpu: 64}\n")
                    .append("      children:\n");
            for (int t = 0; t < TEAMS; t++) {
                int team = d * TEAMS + t;
                departments.append("      - name: team-").append(team).append('\n')
                        .append("        max: {nvidia.com/gpu: 8, kube-queue/max-jobs: 4}\n")
                        .append("        namespaces: [team-").append(team).append("]\n");
            }
        }
        return QuotaTrees.withRoot("""
                    name: root
                    max: {nvidia.com/gpu: 400}
                    children:
                """ + departments);
    }
}
