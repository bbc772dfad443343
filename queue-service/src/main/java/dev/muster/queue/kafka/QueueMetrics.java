package dev.muster.queue.kafka;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QueueSummary;
import dev.muster.queue.core.quota.QuotaTree;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The queue service's Prometheus metrics: queue depth and oldest wait per queue, quota used, min and max per
 * node and resource, admissions, rejections and preemptions, how long jobs waited from submission to admission, and
 * how long each decision takes. Gauges are
 * read at scrape time from one snapshot of the quota core, so they are never stale.
 */
@ApplicationScoped
public class QueueMetrics {

    // One scrape reads every row; a snapshot serves them all.
    private static final Duration SNAPSHOT_TTL = Duration.ofMillis(500);

    /** What the gauges show, taken under the queue's lock in one pass. */
    record Snapshot(Instant taken, List<QueueSummary> queues, Map<String, ResourceList> usage) {
    }

    private final Counter admissions;
    private final Counter rejections;
    private final Counter preemptions;
    private final Timer decisions;
    private final MeterRegistry registry;
    private final MultiGauge queueDepth;
    private final MultiGauge oldestWait;
    private final MultiGauge quotaUsed;
    private final MultiGauge quotaMin;
    private final MultiGauge quotaMax;
    private volatile Supplier<Snapshot> source = () -> new Snapshot(Instant.now(), List.of(), Map.of());
    private volatile Snapshot snapshot;
    private QuotaTree registeredFor;

    QueueMetrics(MeterRegistry registry) {
        this.registry = registry;
        admissions = Counter.builder("muster.queue.admissions").description("Jobs admitted").register(registry);
        rejections = Counter.builder("muster.queue.rejections").description("Jobs rejected with a reason").register(registry);
        preemptions = Counter.builder("muster.queue.preemptions").description("Jobs preempted to return borrowed quota").register(registry);
        decisions = Timer.builder("muster.queue.decision").description("Time to decide on one consumed event").register(registry);
        queueDepth = MultiGauge.builder("muster.queue.depth").description("Jobs waiting in the queue").register(registry);
        oldestWait = MultiGauge.builder("muster.queue.oldest.wait").baseUnit("seconds")
                .description("How long the queue's longest-waiting job has waited").register(registry);
        quotaUsed = MultiGauge.builder("muster.quota.used").description("Quota in use per node and resource").register(registry);
        quotaMin = MultiGauge.builder("muster.quota.min").description("Guaranteed quota per node and resource").register(registry);
        quotaMax = MultiGauge.builder("muster.quota.max").description("Quota limit per node and resource").register(registry);
    }

    /** Where snapshots come from: the owner of the quota core, which takes them under its lock. */
    void observe(Supplier<Snapshot> snapshots) {
        this.source = snapshots;
    }

    /** A snapshot of a quota core; call under the lock that guards it. */
    static Snapshot snapshotOf(QuotaAdmission quota, Instant now) {
        Map<String, ResourceList> usage = new HashMap<>();
        quota.tree().ifPresent(tree -> tree.nodes().forEach(node -> usage.put(node.name(), quota.usage(node.name()))));
        return new Snapshot(now, quota.queueSummaries(), usage);
    }

    /** Counts one event's decisions and how long they took; re-registers the gauges when the tree changed. */
    void recorded(List<? extends MusterEvent> out, long nanos, QuotaAdmission quota) {
        decisions.record(Duration.ofNanos(nanos));
        for (MusterEvent event : out) {
            if (event instanceof JobEvent job && job.data() instanceof JobAdmitted admitted) {
                admissions.increment();
                waited(job, admitted, quota);
            } else if (event instanceof JobEvent job && job.data() instanceof JobRejected) {
                rejections.increment();
            } else if (event instanceof JobEvent job && job.data() instanceof JobPreempted) {
                preemptions.increment();
            }
        }
        QuotaTree tree = quota.tree().orElse(null);
        if (tree != registeredFor) {
            register(tree);
            registeredFor = tree;
        }
    }

    /** From the job's submission to its admission, by leaf: what a user waits before Muster looks for a cluster. */
    private void waited(JobEvent job, JobAdmitted admitted, QuotaAdmission quota) {
        quota.standing(job.job().uid()).ifPresent(standing -> Timer.builder("muster.queue.wait")
                .description("From a job's submission to its admission").tag("leaf", admitted.quotaLeaf() == null ? "" : admitted.quotaLeaf())
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(10)).maximumExpectedValue(Duration.ofHours(6))
                .register(registry).record(Duration.between(standing.job().submittedAt(), job.time())));
    }

    private Snapshot current() {
        Snapshot last = snapshot;
        if (last == null || Duration.between(last.taken(), Instant.now()).compareTo(SNAPSHOT_TTL) > 0) {
            last = source.get();
            snapshot = last;
        }
        return last;
    }

    private void register(QuotaTree tree) {
        List<MultiGauge.Row<?>> depth = new ArrayList<>();
        List<MultiGauge.Row<?>> wait = new ArrayList<>();
        List<MultiGauge.Row<?>> used = new ArrayList<>();
        List<MultiGauge.Row<?>> min = new ArrayList<>();
        List<MultiGauge.Row<?>> max = new ArrayList<>();
        for (QuotaTree.Node node : tree == null ? List.<QuotaTree.Node>of() : tree.nodes()) {
            if (node.isLeaf()) {
                Tags tags = Tags.of("queue", node.queue(), "leaf", node.name());
                depth.add(MultiGauge.Row.of(tags, this, metrics -> metrics.summary(node.name()).map(QueueSummary::depth).orElse(0)));
                wait.add(MultiGauge.Row.of(tags, this, metrics -> metrics.oldestWaitSeconds(node.name())));
            }
            for (String resource : node.max().names()) {
                Tags tags = Tags.of("node", node.pathText(), "resource", resource);
                used.add(MultiGauge.Row.of(tags, this, metrics -> metrics.current().usage()
                        .getOrDefault(node.name(), ResourceList.empty()).amount(resource).doubleValue()));
                max.add(MultiGauge.Row.of(tags, node.max().amount(resource).doubleValue()));
            }
            for (String resource : node.min().names()) {
                min.add(MultiGauge.Row.of(Tags.of("node", node.pathText(), "resource", resource), node.min().amount(resource).doubleValue()));
            }
        }
        queueDepth.register(depth, true);
        oldestWait.register(wait, true);
        quotaUsed.register(used, true);
        quotaMin.register(min, true);
        quotaMax.register(max, true);
    }

    private java.util.Optional<QueueSummary> summary(String leaf) {
        return current().queues().stream().filter(summary -> summary.leaf().equals(leaf)).findFirst();
    }

    private double oldestWaitSeconds(String leaf) {
        Snapshot now = current();
        return summary(leaf).map(QueueSummary::oldestSubmitted)
                .map(oldest -> Duration.between(oldest, now.taken()).toMillis() / 1000.0).orElse(0.0);
    }
}
