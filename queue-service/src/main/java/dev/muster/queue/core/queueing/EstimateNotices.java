package dev.muster.queue.core.queueing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaTree;

/**
 * Which start-time estimates the waiting jobs were told, and when one has moved far enough to be told again. Each
 * telling is a status write on the fleet (the job's waiting condition and its QueueUnit), and an estimate drifts as
 * time passes (a job overdue is taken to end now), so a job is told again only when its estimate moved by more than
 * {@link #MIN_MOVE} and a fifth of the wait left, no sooner than {@link #MIN_INTERVAL} after it was last told, and
 * at once when it gained or lost an estimate. Kept in memory: after a restart, every waiting job is told again once.
 */
final class EstimateNotices {

    /** The least move worth a write. */
    static final Duration MIN_MOVE = Duration.ofMinutes(2);
    /** The least time between two tellings of one job. */
    static final Duration MIN_INTERVAL = Duration.ofMinutes(5);

    /** The most jobs told in one sweep, heads of their queues first: a deep queue's first sweep spreads over a few. */
    static final int MAX_PER_SWEEP = 200;

    /** A waiting job to tell its estimate again, where it waits now. */
    record Notice(String uid, String queue, int position, JobStanding standing, Instant estimate) {
    }

    private record Told(Instant estimate, Instant at) {
    }

    private record Candidate(QuotaTree.Node leaf, int position, QuotaJob job) {
    }

    private final Map<String, Told> told = new HashMap<>();
    private Instant swept;

    /**
     * The waiting jobs whose estimate is due to be told, once per new set of estimates ({@code computedAt}), heads of
     * their queues first, at most {@link #MAX_PER_SWEEP}; each is recorded as told. A job whose wait was never told
     * (its first pass is still to come) is left to the quota core, which tells it with its estimate.
     */
    List<Notice> sweep(QuotaAdmission quota, Function<String, Instant> estimates, Instant computedAt, Instant now) {
        if (computedAt == null || computedAt.equals(swept)) {
            return List.of();
        }
        swept = computedAt;
        Optional<QuotaTree> tree = quota.tree();
        if (tree.isEmpty()) {
            told.clear();
            return List.of();
        }
        List<Candidate> waiting = new ArrayList<>();
        for (QuotaTree.Node node : tree.get().nodes()) {
            if (node.isLeaf()) {
                List<QuotaJob> queue = quota.queue(node.name());
                for (int i = 0; i < queue.size(); i++) {
                    waiting.add(new Candidate(node, i + 1, queue.get(i)));
                }
            }
        }
        retain(waiting.stream().map(candidate -> candidate.job().uid()).collect(Collectors.toSet()));
        waiting.sort(Comparator.comparingInt(Candidate::position));
        List<Notice> notices = new ArrayList<>();
        for (Candidate candidate : waiting) {
            String uid = candidate.job().uid();
            Instant estimate = estimates.apply(uid);
            Optional<JobStanding> standing = quota.standing(uid).filter(known -> known.reason() != null);
            if (standing.isPresent() && due(uid, estimate, now)) {
                told(uid, estimate, now);
                notices.add(new Notice(uid, candidate.leaf().queue(), candidate.position(), standing.get(), estimate));
                if (notices.size() == MAX_PER_SWEEP) {
                    break;
                }
            }
        }
        return notices;
    }

    /**
     * Whether the job should be told this estimate now: never told, gained or lost an estimate, or moved far enough
     * since it was last told, long enough ago.
     */
    boolean due(String uid, Instant estimate, Instant now) {
        Told last = told.get(uid);
        if (last == null) {
            return estimate != null;
        }
        if (last.at().equals(now)) {
            // Told by the quota core in this same event: a second telling would carry the same event ID.
            return false;
        }
        if (last.estimate() == null || estimate == null) {
            return !Objects.equals(last.estimate(), estimate);
        }
        if (now.isBefore(last.at().plus(MIN_INTERVAL))) {
            return false;
        }
        Duration left = Duration.between(now, last.estimate());
        Duration threshold = left.isNegative() ? MIN_MOVE : max(MIN_MOVE, left.dividedBy(5));
        return Duration.between(last.estimate(), estimate).abs().compareTo(threshold) > 0;
    }

    /** The job was told this estimate (null for none) now. */
    void told(String uid, Instant estimate, Instant now) {
        told.put(uid, new Told(estimate, now));
    }

    /** Forgets the jobs no longer waiting. */
    void retain(Set<String> waiting) {
        told.keySet().retainAll(waiting);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
