package dev.muster.queue.core.quota;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Function;

import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaDecision.Preempted;

/**
 * When each waiting job would start were nothing new to arrive: the quota core, restored from the standings into a
 * copy, is driven forward in virtual time, each running job ending at its expected end and each job it then admits
 * running for its own expected duration. The same code that decides decides here, starvation holds, reclaims and fair
 * sharing included; where a job is placed is not simulated (a job admitted is taken to start at once), and a preempted
 * job to stop at once. A job behind a running job of unknown duration, or beyond the horizon, has no estimate.
 * <p>
 * Within {@link #EXACT_WITHIN} of now each job end is a pass of its own, as the core decides one event at a time. Further
 * ahead, the ends that fall within a hundredth of their lead time of the first are gathered into one pass at the last of
 * them, as the queue service gathers the events of a consumed batch: a start forty hours away is not known to the minute
 * anyway, and a replay of ten thousand waiting jobs then takes hundreds of passes, not ten thousand.
 */
public final class StartTimeEstimates {

    /** How far ahead each job end is replayed on its own. */
    public static final Duration EXACT_WITHIN = Duration.ofHours(1);
    /** Beyond {@link #EXACT_WITHIN}, the ends within {@code 1/GATHERED_PER_LEAD} of their lead time are replayed together. */
    static final long GATHERED_PER_LEAD = 100;

    /**
     * One waiting job's estimate.
     *
     * @param start      when it would start; null when there is no estimate
     * @param endsBefore how many jobs end before it starts (0: it fits now)
     * @param why        when there is no estimate, why not; else null
     */
    public record Estimate(Instant start, int endsBefore, String why) {

        public boolean known() {
            return start != null;
        }
    }

    /** A job's end: at {@code at}, which for a job overdue is now; jobs ending at once end in the order they were due. */
    private record End(Instant at, Instant due, String uid, long order) implements Comparable<End> {
        @Override
        public int compareTo(End other) {
            int byTime = at.compareTo(other.at);
            if (byTime != 0) {
                return byTime;
            }
            int byDue = due.compareTo(other.due);
            return byDue != 0 ? byDue : Long.compare(order, other.order);
        }
    }

    private final QuotaAdmission copy;
    private final Function<QuotaJob, Optional<Duration>> expectedDuration;
    private final PriorityQueue<End> ends = new PriorityQueue<>();
    private final Map<String, End> endOf = new HashMap<>();
    private final Map<String, Estimate> estimates = new LinkedHashMap<>();
    private final Set<String> endless = new HashSet<>();
    /** The waiting jobs not estimated yet. */
    private final Set<String> remaining = new HashSet<>();
    private long order;
    private int ended;

    private StartTimeEstimates(QuotaAdmission copy, Function<QuotaJob, Optional<Duration>> expectedDuration) {
        this.copy = copy;
        this.expectedDuration = expectedDuration;
    }

    /**
     * @param standings        every job's standing, as the core persists them
     * @param expectedDuration each job's expected run time; empty when none can be told
     * @param horizon          how far ahead to look
     * @return an estimate for each waiting job, by UID
     */
    public static Map<String, Estimate> of(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings, Instant now,
                                           Function<QuotaJob, Optional<Duration>> expectedDuration, Duration horizon) {
        return of(tree, settings, standings, now, expectedDuration, horizon, Integer.MAX_VALUE);
    }

    /**
     * The same, looking no further than {@code maxEnds} job ends: each end is a pass of the core over the waiting jobs,
     * so a deep queue is estimated only as far as that many ends reach, the rest saying so.
     */
    public static Map<String, Estimate> of(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings, Instant now,
                                           Function<QuotaJob, Optional<Duration>> expectedDuration, Duration horizon, int maxEnds) {
        return of(tree, settings, standings, now, expectedDuration, standing -> Optional.of(standing.admittedAt()), horizon, maxEnds);
    }

    /**
     * The same, each admitted job running from when it started on its member rather than from its admission: a job
     * admitted long ago whose gang waited for room in a member still runs its whole duration.
     *
     * @param startedAt when an admitted job started to run; empty when it has not yet (it then runs its whole duration from now)
     */
    public static Map<String, Estimate> of(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings, Instant now,
                                           Function<QuotaJob, Optional<Duration>> expectedDuration,
                                           Function<JobStanding, Optional<Instant>> startedAt, Duration horizon, int maxEnds) {
        return of(tree, settings, standings, now, expectedDuration, startedAt, horizon, maxEnds, Long.MAX_VALUE);
    }

    /**
     * The same, looking no further once its passes have weighed {@code maxWeighed} waiting jobs and demands in all: a pass
     * stops once none of the jobs left in it can be admitted, so most weigh few, but one where a deep queue is strict FIFO,
     * or its jobs were given back, considers every waiting job, and one over queues of many distinct demands checks each.
     */
    public static Map<String, Estimate> of(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings, Instant now,
                                           Function<QuotaJob, Optional<Duration>> expectedDuration,
                                           Function<JobStanding, Optional<Instant>> startedAt, Duration horizon, int maxEnds,
                                           long maxWeighed) {
        return of(tree, settings, standings, now, expectedDuration, startedAt, horizon, maxEnds, maxWeighed, EXACT_WITHIN);
    }

    /** The same, replaying each job end on its own as far as {@code exactWithin} ahead rather than {@link #EXACT_WITHIN}. */
    static Map<String, Estimate> of(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings, Instant now,
                                    Function<QuotaJob, Optional<Duration>> expectedDuration,
                                    Function<JobStanding, Optional<Instant>> startedAt, Duration horizon, int maxEnds,
                                    long maxWeighed, Duration exactWithin) {
        StartTimeEstimates run = new StartTimeEstimates(QuotaAdmission.restoreToDecideAdmissionsOnly(tree, settings, standings), expectedDuration);
        List<JobStanding> waiting = new ArrayList<>();
        PriorityQueue<Instant> wakeUps = new PriorityQueue<>();
        for (JobStanding standing : standings) {
            if (standing.admitted()) {
                run.running(standing.job(), startedAt.apply(standing).orElse(now), now);
            } else {
                waiting.add(standing);
                run.remaining.add(standing.job().uid());
                if (standing.notBefore() != null && standing.notBefore().isAfter(now)) {
                    wakeUps.add(standing.notBefore());
                }
            }
        }
        Instant end = now.plus(horizon);
        Instant exactUntil = now.plus(exactWithin);
        run.decided(run.copy.reevaluate(now), now);
        boolean cut = false;
        while (!run.remaining.isEmpty()) {
            End next = run.ends.peek();
            Instant wakeUp = wakeUps.peek();
            if (wakeUp != null && (next == null || !wakeUp.isAfter(next.at())) && !wakeUp.isAfter(end)) {
                // A job given back may be admitted again from this moment: nothing else would make the core look.
                run.decided(run.copy.reevaluate(wakeUps.poll()), wakeUp);
                run.settle(wakeUp);
                continue;
            }
            if (next == null || next.at().isAfter(end)) {
                break;
            }
            if (run.ended >= maxEnds || run.copy.weighed() >= maxWeighed) {
                cut = true;
                break;
            }
            Instant at = next.at();
            if (at.isAfter(exactUntil)) {
                // From here on a change owes a pass rather than runs one, and the gathered ends share one.
                run.copy.deferPasses();
            }
            Instant gatherUntil = at.isAfter(exactUntil) ? at.plus(Duration.between(now, at).dividedBy(GATHERED_PER_LEAD)) : at;
            do {
                run.end(run.ends.poll());
                at = next.at();
                next = run.ends.peek();
                wakeUp = wakeUps.peek();
            } while (next != null && !next.at().isAfter(gatherUntil) && (wakeUp == null || wakeUp.isAfter(next.at()))
                    && run.ended < maxEnds);
            run.settle(at);
        }
        Map<String, Estimate> result = new LinkedHashMap<>();
        for (JobStanding standing : waiting) {
            String uid = standing.job().uid();
            result.put(uid, run.estimates.getOrDefault(uid, new Estimate(null, run.ended, cut
                    ? "more than " + run.ended + " jobs end before it; the estimate looks no further" : run.whyNot(standing, horizon))));
        }
        return result;
    }

    /** A job ends: what it held is released. */
    private void end(End end) {
        endOf.remove(end.uid());
        ended++;
        decided(copy.release(end.uid(), end.at()), end.at());
    }

    /** Runs the passes the changes owe, once passes are deferred, until one decides nothing that owes another. */
    private void settle(Instant at) {
        while (copy.owesPass()) {
            decided(copy.flush(at), at);
        }
    }

    /** A job that runs from {@code since}: it ends at its expected end, or never, for all the estimate can tell. */
    private void running(QuotaJob job, Instant since, Instant now) {
        Optional<Duration> duration = expectedDuration.apply(job);
        if (duration.isEmpty()) {
            endless.add(job.uid());
            return;
        }
        Instant due = since.plus(duration.get());
        End end = new End(due.isBefore(now) ? now : due, due, job.uid(), order++);
        ends.add(end);
        endOf.put(job.uid(), end);
    }

    private void decided(List<QuotaDecision> decisions, Instant now) {
        for (QuotaDecision decision : decisions) {
            if (decision instanceof Admitted admitted) {
                if (remaining.remove(admitted.job().uid())) {
                    estimates.put(admitted.job().uid(), new Estimate(now, ended, null));
                }
                running(admitted.job(), now, now);
            } else if (decision instanceof Preempted preempted) {
                // The victim stops at once, and waits again; its own estimate, if it had one, was of a start already made.
                End end = endOf.remove(preempted.job().uid());
                if (end != null) {
                    ends.remove(end);
                }
                endless.remove(preempted.job().uid());
                decided(copy.stopped(preempted.job().uid(), now), now);
            }
        }
    }

    private String whyNot(JobStanding standing, Duration horizon) {
        if (QuotaAdmission.QUOTA_NEVER_FITS.equals(standing.reason())) {
            return "it never fits its quota";
        }
        if (QuotaAdmission.NO_QUOTA_FOR_NAMESPACE.equals(standing.reason())) {
            return "its namespace is bound to no quota leaf";
        }
        if (!endless.isEmpty()) {
            return endless.size() + (endless.size() == 1 ? " job runs" : " jobs run") + " with no expected duration ahead of it";
        }
        return "it would not start within " + horizon.toHours() + " h";
    }
}
