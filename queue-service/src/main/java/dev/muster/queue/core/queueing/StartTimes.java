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
import dev.muster.model.time.GoDurations;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.StartTimeEstimates;
import dev.muster.queue.core.quota.StartTimeEstimates.Estimate;

/**
 * When the waiting jobs would start: each job's expected duration, from its manifest
 * ({@code runPolicy.activeDeadlineSeconds}, else the annotation {@code muster.dev/expected-duration}, a Go duration
 * such as {@code 2h30m}), else the median of the last jobs of its quota leaf that ran to their end; the estimates
 * worked out by the quota core's replay ({@link StartTimeEstimates}), at most once per {@code refresh}, as one
 * replay visits every waiting job. The medians are kept in memory: after a restart they build up again.
 */
final class StartTimes {

    /** The annotation a job may say how long it runs with. */
    static final String EXPECTED_DURATION = "muster.dev/expected-duration";
    /** How far ahead the replay looks. */
    static final Duration HORIZON = Duration.ofDays(14);
    private static final int REMEMBERED_PER_LEAF = 101;

    private final QuotaSettings settings;
    private final Duration refresh;
    private final Map<String, Deque<Duration>> ranByLeaf = new HashMap<>();
    private Map<String, Estimate> estimates = Map.of();
    private Instant computedAt;

    StartTimes(QuotaSettings settings, Duration refresh) {
        this.settings = settings;
        this.refresh = refresh;
    }

    /** A job of this leaf, admitted at {@code admittedAt}, ran to its end now: its run time counts towards the leaf's median. */
    void finished(String leaf, Instant admittedAt, Instant now) {
        if (leaf == null || admittedAt == null || now.isBefore(admittedAt)) {
            return;
        }
        Deque<Duration> ran = ranByLeaf.computeIfAbsent(leaf, name -> new ArrayDeque<>());
        ran.addLast(Duration.between(admittedAt, now));
        if (ran.size() > REMEMBERED_PER_LEAF) {
            ran.removeFirst();
        }
    }

    /** The waiting job's estimate, worked out again when the last one is older than the refresh period. */
    Optional<Estimate> of(String uid, QuotaAdmission quota, Collection<TrackedJob> jobs, Instant now) {
        if (computedAt == null || !now.isBefore(computedAt.plus(refresh))) {
            estimates = compute(quota, jobs, now);
            computedAt = now;
        }
        return Optional.ofNullable(estimates.get(uid));
    }

    private Map<String, Estimate> compute(QuotaAdmission quota, Collection<TrackedJob> jobs, Instant now) {
        if (quota.tree().isEmpty()) {
            return Map.of();
        }
        List<JobStanding> standings = new ArrayList<>();
        Map<String, TrackedJob> byUid = new HashMap<>();
        for (TrackedJob tracked : jobs) {
            if (tracked.standing() != null) {
                standings.add(tracked.standing());
                byUid.put(tracked.ref().uid(), tracked);
            }
        }
        return StartTimeEstimates.of(quota.tree().get(), settings, standings, now, job -> expected(job, byUid.get(job.uid())), HORIZON);
    }

    private Optional<Duration> expected(QuotaJob job, TrackedJob tracked) {
        PyTorchJob manifest = tracked == null ? null : tracked.job().job();
        Optional<Duration> declared = declared(manifest);
        if (declared.isPresent()) {
            return declared;
        }
        return Optional.ofNullable(tracked).map(TrackedJob::standing).map(JobStanding::leaf).map(ranByLeaf::get).filter(ran -> !ran.isEmpty())
                .map(StartTimes::median);
    }

    /** What the job says of its own run time: its deadline, else its annotation. */
    static Optional<Duration> declared(PyTorchJob manifest) {
        if (manifest == null) {
            return Optional.empty();
        }
        if (manifest.getSpec() != null && manifest.getSpec().runPolicy() != null && manifest.getSpec().runPolicy().activeDeadlineSeconds() != null
                && manifest.getSpec().runPolicy().activeDeadlineSeconds() > 0) {
            return Optional.of(Duration.ofSeconds(manifest.getSpec().runPolicy().activeDeadlineSeconds()));
        }
        Map<String, String> annotations = manifest.getMetadata() == null ? null : manifest.getMetadata().getAnnotations();
        return annotations == null || annotations.get(EXPECTED_DURATION) == null ? Optional.empty()
                : GoDurations.parse(annotations.get(EXPECTED_DURATION)).filter(duration -> !duration.isNegative() && !duration.isZero());
    }

    private static Duration median(Deque<Duration> ran) {
        List<Duration> sorted = new ArrayList<>(ran);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
