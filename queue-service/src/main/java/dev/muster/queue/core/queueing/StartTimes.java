package dev.muster.queue.core.queueing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.queue.JobQueueView;
import dev.muster.model.time.GoDurations;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaTree;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.StartTimeEstimates;
import dev.muster.queue.core.quota.StartTimeEstimates.Estimate;

/**
 * When the waiting jobs would start: each job's expected duration, from its manifest
 * ({@code runPolicy.activeDeadlineSeconds}, else the annotation {@code muster.dev/expected-duration}, a Go duration
 * such as {@code 2h30m}), else the median of the last jobs of its quota leaf that ran to their end; the estimates
 * worked out by the quota core's replay ({@link StartTimeEstimates}), at most once per {@code refresh} and no further
 * than {@link #MAX_ENDS} job ends and {@link #MAX_WEIGHED} jobs and demands weighed. The inputs are copied where the queue is
 * held ({@link #inputs}), the replay runs on them apart ({@link #compute}), so that a deep queue's estimate does not hold
 * up the queue's decisions. The medians are kept in memory: after a restart they build up again.
 */
public final class StartTimes {

    /** The annotation a job may say how long it runs with. */
    public static final String EXPECTED_DURATION = "muster.dev/expected-duration";
    /** How far ahead the replay looks. */
    static final Duration HORIZON = Duration.ofDays(14);
    /** The longest run time a job may declare: beyond the horizon anyway, and far inside what an {@code Instant} holds. */
    static final Duration LONGEST_DECLARED = Duration.ofDays(3650);
    /** How many job ends the replay goes through at most. */
    public static final int MAX_ENDS = 20_000;
    /**
     * How many waiting jobs a replay's passes consider, and demands they check to stop early, at most in all: a pass stops
     * once none left can be admitted, but one over a strict FIFO queue, or over jobs given back, considers every waiting
     * job, and one over queues of many distinct demands checks each of them.
     */
    public static final long MAX_WEIGHED = 5_000_000;
    private static final int REMEMBERED_PER_LEAF = 101;

    /**
     * What a replay needs, copied from the queue: the tree, every job's standing, the expected durations known, and when
     * each admitted job started to run (absent: not yet).
     */
    public record Inputs(QuotaTree tree, List<JobStanding> standings, Map<String, Duration> durations, Map<String, Instant> startedAt) {
    }

    private final QuotaSettings settings;
    private final Duration refresh;
    private final Map<String, Deque<Duration>> ranByLeaf = new HashMap<>();
    /** When each admitted job was bound to a member, as placement said; also in the state topic, so a restart keeps it. */
    private final Map<String, Instant> boundAt = new HashMap<>();
    /** The jobs admitted since this queue started that are not bound yet: they have not started to run. */
    private final java.util.Set<String> unbound = new java.util.HashSet<>();
    private volatile Map<String, Estimate> estimates = Map.of();
    private volatile Instant computedAt;

    StartTimes(QuotaSettings settings, Duration refresh) {
        this.settings = settings;
        this.refresh = refresh;
    }

    /** The job was admitted: it runs once bound. */
    void admitted(String uid) {
        unbound.add(uid);
        boundAt.remove(uid);
    }

    /**
     * Placement bound the job to a member: it runs from then (a failover binds it anew, and it starts over). Whether it
     * counts: a binding of a job not admitted here (or since) is of an admission this queue no longer holds.
     */
    boolean bound(String uid, Instant at) {
        if (unbound.remove(uid) || boundAt.containsKey(uid)) {
            boundAt.put(uid, at);
            return true;
        }
        return false;
    }

    /** A binding recorded before a restart, of a job admitted at {@code admittedAt}: one older than that admission was of an earlier one. */
    void restored(String uid, Instant at, Instant admittedAt) {
        if (admittedAt == null || !at.isBefore(admittedAt)) {
            bound(uid, at);
        }
    }

    /**
     * A job of this leaf, admitted at {@code admittedAt}, ran to its end now: its run time, from its binding when known,
     * counts towards the leaf's median.
     */
    void finished(String uid, String leaf, Instant admittedAt, Instant now) {
        Instant since = boundAt.getOrDefault(uid, admittedAt);
        unbound.remove(uid);
        boundAt.remove(uid);
        if (leaf == null || since == null || now.isBefore(since)) {
            return;
        }
        Deque<Duration> ran = ranByLeaf.computeIfAbsent(leaf, name -> new ArrayDeque<>());
        ran.addLast(Duration.between(since, now));
        if (ran.size() > REMEMBERED_PER_LEAF) {
            ran.removeFirst();
        }
    }

    /** Whether the estimates are older than the refresh period. */
    public boolean stale(Instant now) {
        Instant at = computedAt;
        return at == null || !now.isBefore(at.plus(refresh));
    }

    /** A copy of what a replay needs; empty without a tree. Where the queue is held, as the medians are read. */
    Optional<Inputs> inputs(QuotaAdmission quota, Collection<TrackedJob> jobs) {
        if (quota.tree().isEmpty()) {
            return Optional.empty();
        }
        List<JobStanding> standings = new ArrayList<>();
        Map<String, Duration> durations = new HashMap<>();
        Map<String, Instant> startedAt = new HashMap<>();
        java.util.Set<String> admitted = new java.util.HashSet<>();
        for (TrackedJob tracked : jobs) {
            JobStanding standing = tracked.standing();
            if (standing != null) {
                String uid = tracked.ref().uid();
                standings.add(standing);
                expected(tracked).ifPresent(duration -> durations.put(uid, duration));
                if (standing.admitted()) {
                    admitted.add(uid);
                    // Admitted and bound before bindings were kept: its admission stands in.
                    if (!unbound.contains(uid)) {
                        startedAt.put(uid, boundAt.getOrDefault(uid, standing.admittedAt()));
                    }
                }
            }
        }
        // Jobs that left (finished, deleted, preempted and waiting again) are forgotten here, where every job is seen.
        unbound.retainAll(admitted);
        boundAt.keySet().retainAll(admitted);
        return Optional.of(new Inputs(quota.tree().get(), standings, durations, startedAt));
    }

    /** Works the estimates out again from these inputs; safe apart from the queue, and from another replay. */
    public void compute(Inputs inputs, Instant now) {
        Map<String, Estimate> fresh = StartTimeEstimates.of(inputs.tree(), settings, inputs.standings(), now,
                job -> Optional.ofNullable(inputs.durations().get(job.uid())),
                standing -> Optional.ofNullable(inputs.startedAt().get(standing.job().uid())), HORIZON, MAX_ENDS, MAX_WEIGHED);
        estimates = fresh;
        computedAt = now;
    }

    /** When the waiting job would start, as last worked out; null when there is no estimate. */
    Instant estimatedStart(String uid) {
        Estimate estimate = estimates.get(uid);
        return estimate == null ? null : estimate.start();
    }

    /** When the estimates were last worked out, or null before the first time. */
    Instant computedAt() {
        return computedAt;
    }

    /** The view of a waiting job with its estimate, as last worked out; other views as they are. */
    public JobQueueView annotate(JobQueueView view) {
        Estimate estimate = "Queuing".equals(view.state()) ? estimates.get(view.uid()) : null;
        if (estimate == null) {
            return view;
        }
        return new JobQueueView(view.namespace(), view.name(), view.uid(), view.state(), view.queue(), view.position(), view.reason(),
                view.message(), view.demand(), view.job(), view.policy(), estimate.start(), describe(estimate));
    }

    /** What an estimate rests on, for people: how many jobs end first, and what it leaves out; or why there is none. */
    private static String describe(Estimate estimate) {
        if (!estimate.known()) {
            return "no estimate: " + estimate.why();
        }
        String after = estimate.endsBefore() == 0 ? "it fits now" : "after " + estimate.endsBefore() + (estimate.endsBefore() == 1 ? " job ends" : " jobs end");
        return after + ", were nothing new to arrive; where it is placed is not simulated";
    }

    private Optional<Duration> expected(TrackedJob tracked) {
        Optional<Duration> declared = declared(tracked.job().job());
        if (declared.isPresent()) {
            return declared;
        }
        return Optional.ofNullable(tracked.standing()).map(JobStanding::leaf).map(ranByLeaf::get).filter(ran -> !ran.isEmpty())
                .map(StartTimes::median);
    }

    /**
     * What the job says of its own run time: its deadline, else its annotation; at most {@link #LONGEST_DECLARED}, so that
     * no value a user writes takes the replay's clock past what an {@code Instant} holds.
     */
    static Optional<Duration> declared(PyTorchJob manifest) {
        if (manifest == null) {
            return Optional.empty();
        }
        Optional<Duration> declared;
        if (manifest.getSpec() != null && manifest.getSpec().runPolicy() != null && manifest.getSpec().runPolicy().activeDeadlineSeconds() != null
                && manifest.getSpec().runPolicy().activeDeadlineSeconds() > 0) {
            declared = Optional.of(Duration.ofSeconds(manifest.getSpec().runPolicy().activeDeadlineSeconds()));
        } else {
            Map<String, String> annotations = manifest.getMetadata() == null ? null : manifest.getMetadata().getAnnotations();
            declared = annotations == null || annotations.get(EXPECTED_DURATION) == null ? Optional.empty()
                    : GoDurations.parse(annotations.get(EXPECTED_DURATION)).filter(duration -> !duration.isNegative() && !duration.isZero());
        }
        return declared.map(duration -> duration.compareTo(LONGEST_DECLARED) > 0 ? LONGEST_DECLARED : duration);
    }

    private static Duration median(Deque<Duration> ran) {
        List<Duration> sorted = new ArrayList<>(ran);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
