package dev.muster.statussync.core.mirror;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.model.time.GoDurations;
import dev.muster.statussync.core.mirror.CopyIndex.CopyKey;
import dev.muster.statussync.core.mirror.MirrorDecisions.FleetStatus;
import dev.muster.statussync.core.mirror.MirrorDecisions.Purge;

/**
 * Follows every member copy of every fleet job and decides what the fleet sees and what happens to the copy:
 * <ul>
 * <li>the current copy (the newest placement's) is mirrored onto the fleet job, and its state changes are
 * reported; when it succeeds, or fails with no failover left, the job is finished;</li>
 * <li>a current copy that cannot run (see {@link Health}) for longer than its policy's toleration is failed
 * over: the job goes back to placement and the copy is purged as its purge mode says; healthy again within
 * the toleration, nothing happens;</li>
 * <li>copies of an older placement are purged ({@code Immediately}: at once; {@code Graciously}: once the
 * newest copy runs), and so are all copies of a deleted job, until the member confirms they are gone.</li>
 * </ul>
 * Every judgement is made from the member's own objects (copies carry their generation and failover policy),
 * so after a restart status sync judges alike; what it forgets is only how long a copy has been unhealthy,
 * which makes it late to fail over, never early. A member that does not answer when status sync starts cannot be
 * listed: its copies are judged from what the previous instance recorded of them ({@link RememberedCopy}), until the
 * member answers and its own objects say. Event ids are derived from what was observed, so a repeat
 * is recognisable. Plain Java: the service feeds it observations, job events and clock ticks.
 */
public final class JobMirror {

    public static final String SOURCE = "/muster/status-sync-service";

    private final Clock clock;
    private final MirrorSettings settings;
    private final CopyIndex copies = new CopyIndex();
    private final CopyPods pods = new CopyPods();
    private final CopyReports reports = new CopyReports(pods);
    private final MemberConditions members = new MemberConditions();
    private final JobsRead read = new JobsRead();
    /**
     * The jobs whose judgement can change with time alone (a toleration running, a purge to ask again): the only
     * ones a tick judges. Everything else changes with an observation, which judges the jobs it touches.
     */
    private final Set<String> awaitingTime = new LinkedHashSet<>();
    private final CopyRecords records = new CopyRecords();

    public JobMirror(MirrorSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** A member copy was added or changed on its member. */
    public MirrorDecisions copyObserved(MemberCopy copy) {
        CopyKey key = new CopyKey(copy.cluster(), copy.job().uid());
        TrackedCopy tracked = copies.get(key);
        if (tracked == null || !Objects.equals(tracked.copy.copyUid(), copy.copyUid())) {
            untrack(key);
            tracked = new TrackedCopy(copy, clock.instant());
            if (read.preemptionCovers(copy)) {
                // Preempted before status sync first saw it: placement stops it, as for one seen before. (A copy that does
                // not say when it was admitted may be a later admission's: it is taken for the job's, as before.)
                tracked.preempted = true;
                tracked.departed = true;
            }
            tracked.departed |= read.failedOver(copy);
            copies.add(key, tracked);
        } else {
            copies.update(key, tracked, copy);
            tracked.observedAt = clock.instant();
            // Seen on its member at last: what the previous instance recorded of it (failed over from, say) still holds.
            tracked.remembered = false;
            tracked.deletedOnMemberAt = null;
        }
        record(key, tracked);
        return evaluateJob(copy.job().uid());
    }

    /**
     * A member copy is gone from its member. The job's own copy, gone with nothing Muster did or was told of to explain
     * it (a {@code kubectl delete} on the member, say), is a failure of the job: it fails over after its toleration, or
     * is reported, as for any failure. A stop of placement's read meanwhile (preemption, withdrawal, deletion) explains it.
     */
    public MirrorDecisions copyGone(String cluster, String fleetUid) {
        CopyKey key = new CopyKey(cluster, fleetUid);
        TrackedCopy tracked = copies.get(key);
        if (tracked != null && tracked.deletedOnMemberAt == null && lostUnexplained(tracked)) {
            tracked.deletedOnMemberAt = clock.instant();
            return evaluateJob(fleetUid);
        }
        untrack(key);
        return evaluateJob(fleetUid);
    }

    private boolean lostUnexplained(TrackedCopy tracked) {
        return !tracked.departed && !tracked.preempted && !tracked.finishedReported && !tracked.remembered && tracked.purgeAskedAt == null
                && !read.deletionRead(tracked.copy.job().uid()) && !members.isRemoved(tracked.copy.cluster()) && !read.stopCovers(tracked.copy);
    }

    /**
     * A copy read back from the state topic when this instance became the active one, before any member is observed:
     * judged only while its member is known not to answer, and forgotten once the member's jobs are listed without it.
     */
    public MirrorDecisions remembered(RememberedCopy remembered) {
        records.restored(remembered);
        CopyKey key = new CopyKey(remembered.cluster(), remembered.job().uid());
        if (copies.get(key) != null) {
            return MirrorDecisions.none();
        }
        TrackedCopy tracked = new TrackedCopy(remembered.copy(), clock.instant());
        tracked.remembered = true;
        tracked.departed = remembered.departed() || read.failedOver(remembered.copy());
        copies.add(key, tracked);
        return evaluateJob(remembered.job().uid());
    }

    /**
     * The member's jobs are listed: a copy remembered but not listed is gone. One the job had left is purged as before
     * (it stays until its purge is confirmed, so that it is never taken for the job's again); the job's own, gone while no
     * instance watched, is taken as a copy seen deleted (see {@link #copyGone}), unless what was read meanwhile (its
     * job's deletion, or a stop by placement) explains it.
     */
    public MirrorDecisions memberListed(String cluster) {
        MirrorDecisions decisions = MirrorDecisions.none();
        for (Map.Entry<CopyKey, TrackedCopy> entry : List.copyOf(copies.all().entrySet())) {
            TrackedCopy tracked = entry.getValue();
            if (!entry.getKey().cluster().equals(cluster) || !tracked.remembered || tracked.departed || tracked.deletedOnMemberAt != null) {
                continue;
            }
            if (read.deletionRead(entry.getKey().uid()) || members.isRemoved(cluster)) {
                untrack(entry.getKey());
            } else {
                tracked.deletedOnMemberAt = clock.instant();
            }
            decisions = decisions.and(evaluateJob(entry.getKey().uid()));
        }
        return decisions;
    }

    /**
     * The member confirmed a purge: a remembered copy, or one deleted on its member, that it purged is gone, whether or
     * not it was still there.
     */
    public MirrorDecisions purgeConfirmed(String cluster, String fleetUid, String copyUid) {
        CopyKey key = new CopyKey(cluster, fleetUid);
        TrackedCopy tracked = copies.get(key);
        // A copy seen on its member is forgotten when the member shows it gone; these two never will be seen again.
        if (tracked == null || !tracked.remembered && tracked.deletedOnMemberAt == null || !tracked.copy.copyUid().equals(copyUid)) {
            return MirrorDecisions.none();
        }
        untrack(key);
        return evaluateJob(fleetUid);
    }

    /** The changes to status sync's state topic since the last call, each key's last; a null value removes the key. */
    public Map<String, RememberedCopy> drainRecords() {
        return records.drain();
    }

    /** A pod was added or changed on a member. */
    public MirrorDecisions podObserved(MemberPod pod) {
        pods.observed(pod);
        return evaluateJobsNamed(pod.cluster(), pod.namespace(), pod.job());
    }

    /** A pod is gone from a member. */
    public MirrorDecisions podGone(String cluster, String namespace, String name) {
        return pods.gone(cluster, namespace, name).map(gone -> evaluateJobsNamed(cluster, namespace, gone.job())).orElse(MirrorDecisions.none());
    }

    /** Whether a member's API answers. */
    public MirrorDecisions memberObserved(String cluster, boolean isReachable) {
        if (!members.reachability(cluster, isReachable)) {
            return MirrorDecisions.none();
        }
        if (isReachable) {
            // Purges the member could not take while away are asked for again as soon as it is back.
            copies.all().forEach((key, tracked) -> {
                if (key.cluster().equals(cluster)) {
                    tracked.purgeAskedAt = null;
                }
            });
        }
        return evaluateCluster(cluster);
    }

    /**
     * A member left the fleet: it is not watched any more. Its jobs are judged as on an unreachable member (they
     * fail over as their policies say); their copies there cannot be purged by Muster and are forgotten.
     */
    public MirrorDecisions memberRemoved(String cluster) {
        members.removed(cluster);
        pods.clusterRemoved(cluster);
        return evaluateCluster(cluster);
    }

    /** A node's readiness on a member. */
    public MirrorDecisions nodeObserved(String cluster, String node, boolean ready) {
        return members.node(cluster, node, ready) ? evaluateCluster(cluster) : MirrorDecisions.none();
    }

    /** A node is gone from a member: its pods are gone or going with it. */
    public MirrorDecisions nodeGone(String cluster, String node) {
        return nodeObserved(cluster, node, true);
    }

    /**
     * A job event: a deleted fleet job has all its copies purged; a preempted one's copies are no longer its status,
     * nor failed over or finished (placement stops them, and a copy placed later is another copy, whether it is seen
     * before or after the preemption is read).
     */
    public MirrorDecisions handle(MusterEvent event) {
        if (event instanceof JobEvent job && job.data() instanceof JobDeleted) {
            read.deleted(job.job());
            return evaluateJob(job.job().uid());
        }
        if (event instanceof JobEvent job && (job.data() instanceof JobWithdrawn || job.data() instanceof JobEvicted)) {
            // Placement stops the job: a copy seen gone meanwhile was its doing.
            read.stopped(job.job().uid(), job.time());
            forgetDeletedOnMember(job.job().uid(), job.time());
            return evaluateJob(job.job().uid());
        }
        if (event instanceof JobEvent job && job.data() instanceof JobPreempted) {
            read.preempted(job.job().uid(), job.time());
            forgetDeletedOnMember(job.job().uid(), job.time());
            for (TrackedCopy tracked : copies.ofJob(job.job().uid()).values()) {
                if (!tracked.copy.stoppedBy(job.time())) {
                    // The copy of a later admission, seen on its member before this preemption was read: it is the job's.
                    continue;
                }
                tracked.preempted = true;
                tracked.departed = true;
                tracked.unhealthySince = null;
                tracked.purgeAskedAt = null;
                record(CopyKey.of(tracked), tracked);
            }
            return evaluateJob(job.job().uid());
        }
        if (event instanceof JobEvent job && job.data() instanceof JobBound bound) {
            read.bound(job.job().uid(), bound.cluster());
            return evaluateJob(job.job().uid());
        }
        if (event instanceof JobEvent job && job.data() instanceof FailoverTriggered && SOURCE.equals(job.source())) {
            return failoverRead(job);
        }
        return MirrorDecisions.none();
    }

    /**
     * A failover status sync decided, read back: the copy it left is the job's no more, even if the instance that decided
     * it died before recording so (it sends the event first, so that a copy is never purged before its failover is told).
     */
    private MirrorDecisions failoverRead(JobEvent failover) {
        String uid = failover.job().uid();
        read.failedOver(failover);
        for (TrackedCopy tracked : copies.ofJob(uid).values()) {
            if (!tracked.departed && read.failedOver(tracked.copy)) {
                tracked.departed = true;
                tracked.unhealthySince = null;
                record(CopyKey.of(tracked), tracked);
            }
        }
        return evaluateJob(uid);
    }

    /** Placement stopped the job: its copies seen gone, or remembered and not seen yet, are placement's to remove. */
    private void forgetDeletedOnMember(String uid, Instant stoppedAt) {
        for (Map.Entry<CopyKey, TrackedCopy> entry : List.copyOf(copies.ofJob(uid).entrySet())) {
            TrackedCopy tracked = entry.getValue();
            if ((tracked.deletedOnMemberAt != null || tracked.remembered && !tracked.departed) && tracked.copy.stoppedBy(stoppedAt)) {
                untrack(entry.getKey());
            }
        }
    }

    /**
     * The status last mirrored for the job, to write again once the fleet job of a Kafka submission is created:
     * status sync may see a member run a job before it has read the job's submission (a backlog, a restart), and
     * the mirror writes a status only when the member changes it.
     */
    public MirrorDecisions mirroredStatus(String uid) {
        // With copies of several generations (a failover under way), the newest copy's status is the one shown.
        return copies.ofJob(uid).values().stream()
                .filter(tracked -> !tracked.departed && tracked.writtenStatus != null)
                .max(Comparator.comparingInt(tracked -> tracked.copy.generation()))
                .map(tracked -> new MirrorDecisions(List.of(), List.of(new FleetStatus(tracked.copy.job(), tracked.copy.cluster(), tracked.writtenStatus,
                        tracked.observedAt)), List.of()))
                .orElse(MirrorDecisions.none());
    }

    /** Fails over copies whose toleration ran out, and asks again for purges the member has not confirmed. */
    public MirrorDecisions tick() {
        MirrorDecisions decisions = MirrorDecisions.none();
        for (String uid : List.copyOf(awaitingTime)) {
            decisions = decisions.and(evaluateJob(uid));
        }
        return decisions;
    }

    /** The copies observed now, for the per-member views. */
    public List<MemberCopy> copies() {
        return copies.all().values().stream().filter(tracked -> !tracked.remembered).map(tracked -> tracked.copy).toList();
    }

    /** The pods of member copies observed now, for the per-member views. */
    public List<MemberPod> pods() {
        return pods.all();
    }

    private MirrorDecisions evaluateCluster(String cluster) {
        MirrorDecisions decisions = MirrorDecisions.none();
        for (CopyKey key : new ArrayList<>(copies.all().keySet())) {
            if (key.cluster().equals(cluster)) {
                decisions = decisions.and(evaluateJob(key.uid()));
            }
        }
        return decisions;
    }

    private MirrorDecisions evaluateJobsNamed(String cluster, String namespace, String name) {
        MirrorDecisions decisions = MirrorDecisions.none();
        for (String uid : copies.uidsNamed(new MemberJobName(cluster, namespace, name))) {
            decisions = decisions.and(evaluateJob(uid));
        }
        return decisions;
    }

    /** Judges every copy of one fleet job, and notes whether time alone can change that judgement. */
    private MirrorDecisions evaluateJob(String uid) {
        MirrorDecisions decisions = judgeJob(uid);
        if (copies.ofJob(uid).values().stream().anyMatch(TrackedCopy::awaitsTime)) {
            awaitingTime.add(uid);
        } else {
            awaitingTime.remove(uid);
        }
        return decisions;
    }

    private MirrorDecisions judgeJob(String uid) {
        List<TrackedCopy> ofJob = copies.ofJob(uid).values().stream().filter(this::judged).toList();
        if (ofJob.isEmpty()) {
            return MirrorDecisions.none();
        }
        Instant now = clock.instant();
        if (ofJob.stream().anyMatch(tracked -> read.isDeleted(tracked.copy))) {
            MirrorDecisions decisions = MirrorDecisions.none();
            for (TrackedCopy tracked : ofJob) {
                if (read.isDeleted(tracked.copy)) {
                    decisions = decisions.and(purge(tracked, now, "the fleet job was deleted"));
                }
            }
            return decisions;
        }
        int newest = ofJob.stream().mapToInt(tracked -> tracked.copy.generation()).max().orElse(0);
        Optional<String> boundTo = read.boundTo(uid);
        // Of two copies of one placement generation (the job stopped and placed again), the one still on its member, then
        // the later admission's, then the one where the job is bound, is the job's: the other is left, never the live one.
        Optional<TrackedCopy> current = ofJob.stream().filter(tracked -> tracked.copy.generation() == newest && !tracked.departed)
                .min(Comparator.comparing((TrackedCopy tracked) -> tracked.deletedOnMemberAt != null)
                        .thenComparing(tracked -> tracked.copy.admittedAt().orElse(Instant.MIN), Comparator.reverseOrder())
                        .thenComparing(tracked -> !boundTo.map(tracked.copy.cluster()::equals).orElse(false)));
        MirrorDecisions decisions = MirrorDecisions.none();
        for (TrackedCopy tracked : ofJob) {
            if (current.isPresent() && tracked == current.get()) {
                decisions = decisions.and(evaluateCurrent(tracked, now));
            } else if (current.isPresent() && sameAdmission(tracked, current.get())) {
                decisions = decisions.and(evaluateSecondCopy(tracked, current.get(), boundTo, now));
            } else {
                decisions = decisions.and(evaluateLeft(tracked, current.filter(other -> other.copy.generation() > tracked.copy.generation()), now));
            }
        }
        return decisions;
    }

    /** Two live copies of one placement of the job: one admission, one generation, neither left by a failover or stop. */
    private static boolean sameAdmission(TrackedCopy tracked, TrackedCopy current) {
        return !tracked.departed && !tracked.preempted && tracked.deletedOnMemberAt == null && current.deletedOnMemberAt == null
                && tracked.copy.generation() == current.copy.generation() && tracked.copy.admittedAt().equals(current.copy.admittedAt());
    }

    /**
     * A second copy of one placement of the job (one made on a member whose answer was lost, while the job was placed on
     * another): the job runs twice. Once a binding of the job is read, the copy where it is bound is the job's and the
     * other is purged, whatever the purge mode, which is about failovers. With no binding read (not yet, or not since this
     * instance started) the other is left as any copy the job has left.
     */
    private MirrorDecisions evaluateSecondCopy(TrackedCopy tracked, TrackedCopy current, Optional<String> boundTo, Instant now) {
        if (boundTo.isEmpty() || !boundTo.get().equals(current.copy.cluster())) {
            return evaluateLeft(tracked, Optional.empty(), now);
        }
        return purge(tracked, now, "a second copy of the job: it is bound to " + current.copy.cluster());
    }

    /**
     * Whether the copy is judged now: one seen on its member, one the job has left (to purge), one gone from its member,
     * or one remembered whose member is known not to answer. A remembered copy on a member that answers is judged once
     * the member shows it, or lists its jobs without it.
     */
    private boolean judged(TrackedCopy tracked) {
        return !tracked.remembered || tracked.departed || tracked.deletedOnMemberAt != null || members.isKnownUnreachable(tracked.copy.cluster());
    }

    /** A copy the job has left (failed over from, or placed again since): purged as its purge mode says. */
    private MirrorDecisions evaluateLeft(TrackedCopy tracked, Optional<TrackedCopy> newer, Instant now) {
        if (tracked.preempted) {
            return MirrorDecisions.none();
        }
        PurgeMode mode = tracked.copy.failover().map(FailoverPolicy::purgeMode).orElse(PurgeMode.IMMEDIATELY);
        if (mode == PurgeMode.GRACIOUSLY) {
            if (newer.isEmpty() || !newer.get().copy.isRunning()) {
                return MirrorDecisions.none();
            }
            return purge(tracked, now, "the job runs again on " + newer.get().copy.cluster());
        }
        if (mode == PurgeMode.NEVER && newer.isEmpty()) {
            return MirrorDecisions.none();
        }
        return purge(tracked, now, newer.map(other -> "the job was placed again, on " + other.copy.cluster()).orElse("the job failed over"));
    }

    /** The job's current copy: what the fleet is told of it, then whether it finished, or fails over after its toleration. */
    private MirrorDecisions evaluateCurrent(TrackedCopy tracked, Instant now) {
        MemberCopy copy = tracked.copy;
        boolean isReachable = members.isReachable(copy.cluster());
        MirrorDecisions decisions = reports.of(tracked, isReachable, now);
        Optional<FailoverPolicy> failover = copy.failover().filter(policy -> policy.purgeMode() != PurgeMode.NEVER);
        boolean failoverLeft = failover.isPresent() && copy.generation() < settings.maxFailovers();
        if (isReachable && copy.status().isFinished() && !tracked.finishedReported && ("Succeeded".equals(copy.state()) || !failoverLeft)) {
            tracked.finishedReported = true;
            record(CopyKey.of(tracked), tracked);
            String message = copy.condition().map(condition -> condition.message()).orElse(null);
            if ("Failed".equals(copy.state()) && failover.isPresent()) {
                message = message + " (failed over " + copy.generation() + " times, the most " + settings.maxFailovers() + " allowed)";
            }
            return decisions.and(events(JobEvent.observed(SOURCE, copy.job(), now, new JobFinished(copy.cluster(), copy.state(), message),
                    copy.copyUid() + "|finished")));
        }
        if (tracked.finishedReported) {
            return decisions;
        }
        return decisions.and(judgeHealth(tracked, failoverLeft ? failover : Optional.empty(), isReachable, now));
    }

    /** What the state topic keeps of the copy: it while a member cut off could leave it to judge, else nothing. */
    private void record(CopyKey key, TrackedCopy tracked) {
        if (tracked.finishedReported || tracked.preempted) {
            records.forget(RememberedCopy.key(key.cluster(), key.uid()));
        } else {
            records.keep(RememberedCopy.of(tracked.copy, tracked.departed));
        }
    }

    private void untrack(CopyKey key) {
        if (copies.remove(key) != null) {
            records.forget(RememberedCopy.key(key.cluster(), key.uid()));
        }
    }

    private MirrorDecisions judgeHealth(TrackedCopy tracked, Optional<FailoverPolicy> failover, boolean isReachable, Instant now) {
        MemberCopy copy = tracked.copy;
        Collection<MemberPod> ofCopy = pods.of(MemberJobName.of(copy));
        Optional<Health.Problem> problem = tracked.deletedOnMemberAt != null
                ? Optional.of(new Health.Problem("CopyDeleted", "the job's copy on " + copy.cluster() + " was deleted there, not by Muster"))
                : Health.problem(copy, ofCopy, isReachable, members.notReadyNodes(copy.cluster()));
        if (problem.isEmpty()) {
            tracked.unhealthySince = null;
            tracked.problemReported = false;
            return MirrorDecisions.none();
        }
        if (tracked.unhealthySince == null) {
            tracked.unhealthySince = now;
        }
        Duration unhealthyFor = Duration.between(tracked.unhealthySince, now);
        if (failover.isEmpty()) {
            if (tracked.problemReported) {
                return MirrorDecisions.none();
            }
            tracked.problemReported = true;
            String why = copy.failover().isEmpty() ? "its policy asks for no failover"
                    : copy.failover().get().purgeMode() == PurgeMode.NEVER ? "its purge mode is Never"
                    : "it failed over " + copy.generation() + " times, the most allowed";
            return events(JobEvent.observed(SOURCE, copy.job(), now, new MemberStatusChanged(copy.cluster(), copy.state(), "Unhealthy",
                    problem.get().message() + "; it stays where it is: " + why, null), copy.copyUid() + "|unhealthy|" + tracked.unhealthySince));
        }
        if (unhealthyFor.compareTo(failover.get().toleration()) < 0) {
            return MirrorDecisions.none();
        }
        tracked.departed = true;
        record(CopyKey.of(tracked), tracked);
        String message = problem.get().message() + " for " + GoDurations.format(unhealthyFor.withNanos(0)) + " (toleration "
                + GoDurations.format(failover.get().toleration()) + ")";
        MirrorDecisions decisions = events(new JobEvent(JobsRead.failoverId(copy), SOURCE, copy.job(), now,
                new FailoverTriggered(copy.cluster(), problem.get().reason(), message, failover.get().purgeMode().value())));
        if (failover.get().purgeMode() == PurgeMode.IMMEDIATELY) {
            decisions = decisions.and(purge(tracked, now, "the job failed over"));
        }
        return decisions;
    }

    /** Asks for the copy's deletion, again after {@code purgeRetry} while the member still shows it. */
    private MirrorDecisions purge(TrackedCopy tracked, Instant now, String reason) {
        if (members.isRemoved(tracked.copy.cluster())) {
            untrack(CopyKey.of(tracked));
            return MirrorDecisions.none();
        }
        if (tracked.purgeAskedAt != null && now.isBefore(tracked.purgeAskedAt.plus(settings.purgeRetry()))) {
            return MirrorDecisions.none();
        }
        tracked.purgeAskedAt = now;
        boolean jobDeleted = read.isDeleted(tracked.copy);
        return new MirrorDecisions(List.of(), List.of(), List.of(new Purge(tracked.copy.cluster(), tracked.copy.job(), tracked.copy.copyUid(), reason,
                jobDeleted)));
    }

    private static MirrorDecisions events(JobEvent event) {
        return new MirrorDecisions(List.of(event), List.of(), List.of());
    }
}
