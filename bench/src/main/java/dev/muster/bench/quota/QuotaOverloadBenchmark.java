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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * The quota core overloaded, as the 130 % trace run drives it: 16 tenants that may each borrow the whole fleet, so
 * every refusal is the root's; {@code queued} jobs waiting, all of them past the starvation age, so that each holds
 * capacity for itself in every evaluation. A job completes, its release re-evaluates every queue, and a new job
 * arrives in its place (two decisions per operation).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g"})
public class QuotaOverloadBenchmark {

    private static final int TENANTS = 16;

    /** Jobs waiting in the queues. */
    @Param({"5000"})
    public int queued;

    private QuotaLoad load;

    @Setup(Level.Trial)
    public void overload() {
        load = overloaded(queued);
    }

    static QuotaLoad overloaded(int queued) {
        QuotaLoad load = new QuotaLoad(new QuotaAdmission(QuotaTree.of(tree()), QuotaSettings.defaults()), Duration.ofMillis(100),
                QuotaOverloadBenchmark::nextJob);
        load.fill(queued);
        // Past the starvation age: every waiting job now holds capacity for itself.
        load.record(load.quota.reevaluate(load.advance(QuotaSettings.defaults().starvationAge().plusSeconds(1))));
        return load;
    }

    /** An admitted job completes; its release re-evaluates the queues; a new job arrives. */
    @Benchmark
    public int completion() {
        return load.completeAndReplace();
    }

    /**
     * The same core as the queue service runs it, one pass a batch of consumed events: a hundred completions and
     * arrivals, then the pass they owe. Per completion and arrival.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int completionInABatch(Batched batched) {
        int decisions = 0;
        for (int i = 0; i < BATCH; i++) {
            decisions += batched.load.completeAndReplace();
        }
        return decisions + batched.load.flush();
    }

    static final int BATCH = 100;

    /** The overloaded core with its passes deferred to a batch's end. */
    @State(Scope.Benchmark)
    public static class Batched {

        QuotaLoad load;

        @Setup(Level.Trial)
        public void overload(QuotaOverloadBenchmark benchmark) {
            load = overloaded(benchmark.queued);
            load.quota.deferPasses();
        }
    }

    private static QuotaJob nextJob(QuotaLoad load) {
        long id = load.nextNumber();
        int tenant = load.random.nextInt(TENANTS);
        int gpus = 1 << load.random.nextInt(4);
        ResourceList demand = ResourceList.of(ResourceNames.GPU, BigDecimal.valueOf(gpus))
                .plus(ResourceList.of(ResourceNames.CPU, BigDecimal.valueOf(8L * gpus)))
                .plus(ResourceList.of("memory", BigDecimal.valueOf(64L * gpus << 30)));
        return new QuotaJob("job-" + id, "tenant-" + tenant, "job-" + id, demand, 0, load.now(), id);
    }

    /** Root 512 GPUs; 16 tenants guaranteed 32 each, each allowed to borrow up to the root's max. */
    static ElasticQuotaTree tree() {
        StringBuilder tenants = new StringBuilder();
        for (int t = 0; t < TENANTS; t++) {
            tenants.append("    - name: tenant-").append(t).append('\n')
                    .append("      min: {nvidia.com/gpu: 32, cpu: 256, memory: 2Ti}\n")
                    .append("      max: {nvidia.com/gpu: 512, cpu: 4096, memory: 32Ti}\n")
                    .append("      namespaces: [tenant-").append(t).append("]\n");
        }
        return QuotaTrees.withRoot("""
                    name: root
                    min: {nvidia.com/gpu: 512, cpu: 4096, memory: 32Ti}
                    max: {nvidia.com/gpu: 512, cpu: 4096, memory: 32Ti}
                    children:
                """ + tenants);
    }
}
