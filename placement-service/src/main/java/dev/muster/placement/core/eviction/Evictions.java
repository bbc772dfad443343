package dev.muster.placement.core.eviction;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobRef;
import dev.muster.model.time.GoDurations;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberResult;

/**
 * The jobs placement is stopping on their members: preempted for a reclaim, or deleted. Each is asked of its member again and again, until the
 * member shows nothing of it (no copy, no pod, terminating ones included, no reservation); only then is the job
 * reported stopped, and its quota goes to the job that reclaimed it. The member's own answer decides, not placement's
 * inventory, which a restarted placement reads again from the beginning and may show the pods too late.
 */
public final class Evictions {

    /**
     * One job being stopped.
     *
     * @param preemption the id of the preemption event, from which the stopped event's id is derived: a repeat is recognisable
     * @param by         the job it is stopped for ({@code namespace/name}); null when it is stopped because it was deleted
     * @param nextCheck  when to ask the member again; while a question is out, when to give up waiting for its answer
     * @param found      what the member held of it at its first answer, for a person; null before that answer
     */
    public record Eviction(JobRef job, String cluster, String preemption, String by, Instant since, Instant nextCheck, String found) {

        Eviction asked(Instant until) {
            return new Eviction(job, cluster, preemption, by, since, until, found);
        }

        Eviction answered(String left, Instant next) {
            return new Eviction(job, cluster, preemption, by, since, next, found == null ? left : found);
        }
    }

    private final String source;
    private final Duration checkInterval;
    /** How long an unanswered question is waited for before it is asked again (a write lost with a crashed writer). */
    private final Duration answerTimeout;
    private final Map<String, Eviction> evicting = new LinkedHashMap<>();

    public Evictions(String source, Duration checkInterval, Duration answerTimeout) {
        this.source = source;
        this.checkInterval = checkInterval;
        this.answerTimeout = answerTimeout;
    }

    /** Starts stopping the job on its member: the write to ask for. */
    public MemberCommand start(JobRef job, String cluster, String preemption, String by, Instant now) {
        evicting.put(job.uid(), new Eviction(job, cluster, preemption, by, now, now.plus(answerTimeout), null));
        return new MemberCommand.Evict(cluster, job);
    }

    /** Carries on an eviction a previous owner of placement left: the write to ask for again. */
    public MemberCommand resume(Eviction eviction, Instant now) {
        evicting.put(eviction.job().uid(), eviction.asked(now.plus(answerTimeout)));
        return new MemberCommand.Evict(eviction.cluster(), eviction.job());
    }

    /** The job stopped on no member: it was not on any yet. */
    public JobEvent nothingToStop(JobRef job, String preemption, Instant now) {
        return stoppedEvent(job, preemption, now, new JobEvicted(null, "it was on no member cluster (not placed yet, or finished already)"));
    }

    public Optional<Eviction> eviction(String uid) {
        return Optional.ofNullable(evicting.get(uid));
    }

    public Collection<Eviction> all() {
        return List.copyOf(evicting.values());
    }

    /** The job ended (finished, deleted) while being stopped: nothing more to report of it. */
    public boolean forget(String uid) {
        return evicting.remove(uid) != null;
    }

    /** What the member answered: the stopped event once nothing is left, else nothing until the next check. */
    public Decisions answered(MemberResult result, Instant now) {
        Eviction eviction = evicting.get(result.job().uid());
        if (eviction == null || !eviction.cluster().equals(result.cluster())) {
            return Decisions.none();
        }
        if (result instanceof MemberResult.Evicting answer && answer.stopped()) {
            evicting.remove(result.job().uid());
            String message = "stopped on member cluster " + eviction.cluster() + (eviction.by() == null ? "" : " for " + eviction.by())
                    + (eviction.found() == null || eviction.found().isEmpty() ? "" : ": deleted " + eviction.found() + ", all gone after "
                    + GoDurations.format(Duration.between(eviction.since(), now).truncatedTo(ChronoUnit.SECONDS)));
            return events(stoppedEvent(eviction.job(), eviction.preemption(), now, new JobEvicted(eviction.cluster(), message)));
        }
        evicting.put(result.job().uid(), eviction.answered(stillThere(result), now.plus(checkInterval)));
        return Decisions.none();
    }

    /** What an answer other than "nothing is left" says is still on the member, for the stopped event's message. */
    private static String stillThere(MemberResult result) {
        if (result instanceof MemberResult.Evicting answer) {
            return answer.left();
        }
        if (result instanceof MemberResult.Failed failed) {
            return "an answer (" + failed.reason() + ")";
        }
        if (result instanceof MemberResult.Unanswered) {
            return "perhaps its member copy (a creation asked for before the stop got no answer)";
        }
        // The answer to a creation asked for before the stop (a restart resumed it): the copy it made is stopped at the next check.
        return "its member copy, created by a write asked for before the stop";
    }

    /** Asks again of every eviction whose next check is due. */
    public Decisions due(Instant now) {
        List<MemberCommand> asks = new ArrayList<>();
        for (Eviction eviction : List.copyOf(evicting.values())) {
            if (!now.isBefore(eviction.nextCheck())) {
                evicting.put(eviction.job().uid(), eviction.asked(now.plus(answerTimeout)));
                asks.add(new MemberCommand.Evict(eviction.cluster(), eviction.job()));
            }
        }
        return new Decisions(List.of(), asks);
    }

    /** A member left the fleet: what Muster was stopping there is out of the fleet's capacity, so it has stopped. */
    public Decisions memberLeft(String cluster, Instant now) {
        List<JobEvent> stopped = new ArrayList<>();
        for (Eviction eviction : List.copyOf(evicting.values())) {
            if (eviction.cluster().equals(cluster)) {
                evicting.remove(eviction.job().uid());
                stopped.add(stoppedEvent(eviction.job(), eviction.preemption(), now, new JobEvicted(cluster, "member cluster " + cluster
                        + " left the fleet; what ran there is no part of the fleet's capacity any more")));
            }
        }
        return new Decisions(stopped, List.of());
    }

    private JobEvent stoppedEvent(JobRef job, String preemption, Instant now, JobEvicted data) {
        return JobEvent.observed(source, job, now, data, "stopped|" + preemption);
    }

    private static Decisions events(JobEvent event) {
        return new Decisions(List.of(event), List.of());
    }
}
