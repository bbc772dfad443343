package dev.muster.bench.quota;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import dev.muster.queue.core.quota.QueueSummary;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaDecision;
import dev.muster.queue.core.quota.QuotaJob;

/**
 * A quota core kept at a steady depth for a benchmark: jobs made up as they arrive, the ones it admitted in order, and
 * a clock that moves a step per call.
 */
final class QuotaLoad {

    final QuotaAdmission quota;
    final Random random = new Random(2026);
    private final Deque<String> admitted = new ArrayDeque<>();
    private final Duration step;
    private final Function<QuotaLoad, QuotaJob> jobs;
    private Instant now = Instant.parse("2026-11-29T12:00:00Z");
    private long sequence;

    /** @param jobs makes the next job, numbered by {@link #nextNumber()} and stamped {@link #now()} */
    QuotaLoad(QuotaAdmission quota, Duration step, Function<QuotaLoad, QuotaJob> jobs) {
        this.quota = quota;
        this.step = step;
        this.jobs = jobs;
    }

    /** Submits jobs until {@code queued} wait; the rest were admitted. */
    int fill(int queued) {
        int submitted = 0;
        while (quota.queueSummaries().stream().mapToInt(QueueSummary::depth).sum() < queued) {
            record(quota.submit(nextJob(), tick()));
            submitted++;
        }
        if (admitted.isEmpty() || submitted < queued) {
            throw new IllegalStateException("the tree admitted nothing or too much: " + admitted.size() + " admitted of " + submitted);
        }
        return submitted;
    }

    /** An admitted job completes, its release re-evaluating the queues, and a new job arrives in its place. */
    int completeAndReplace() {
        int decisions = record(quota.release(admitted.pollFirst(), tick()));
        return decisions + record(quota.submit(nextJob(), tick()));
    }

    /** The pass the changes since the last one owe, when the core defers its passes to a batch's end. */
    int flush() {
        return record(quota.flush(tick()));
    }

    QuotaJob nextJob() {
        return jobs.apply(this);
    }

    long nextNumber() {
        return sequence++;
    }

    Instant now() {
        return now;
    }

    /** Moves the clock a step, or further. */
    Instant tick() {
        now = now.plus(step);
        return now;
    }

    Instant advance(Duration by) {
        now = now.plus(by);
        return now;
    }

    /** Keeps the admitted jobs, which later complete; how many decisions there were. */
    int record(List<QuotaDecision> decisions) {
        for (QuotaDecision decision : decisions) {
            if (decision instanceof QuotaDecision.Admitted admittedJob) {
                admitted.addLast(admittedJob.job().uid());
            }
        }
        return decisions.size();
    }
}
