package dev.muster.placement.core.gang;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MemberWriteAnswered;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.event.PlacementTick;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.job.JobDemand;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.time.GoDurations;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberHoldings;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.placement.core.eviction.Evictions;
import dev.muster.placement.core.eviction.FinishedCopies;
import dev.muster.placement.core.inventory.ClusterInventory;

/**
 * Places each admitted job's whole gang on one member cluster. For each job: rank the clusters it fits now
 * ({@link GangPlanner}); on the best, reserve the plan's capacity where the member supports reservations and
 * wait (as inventory reports arrive, never blocking) until every reservation is Available, then create the
 * member copy of the job; then the job is bound. A member that does not confirm in time, or refuses, has its
 * reservations released and the next cluster is tried. A job that fits nowhere waits, and is tried again when
 * inventory changes, no sooner than a doubling backoff. Plain Java: the service feeds it events, member results
 * and clock ticks, and carries out the member writes it asks for.
 */
public final class GangPlacer {

    public static final String SOURCE = "/muster/placement-service";
    public static final String NO_MEMBERS = "no member cluster has reported its inventory to placement; the job cannot be placed yet";
    /** The event types {@link #handle} acts on: admissions, the end or failover of a job, and what members report. */
    public static final Set<EventType> READS = readEvents();
    /**
     * How long after a creation that got no answer it is asked for again: soon enough that a member back from an outage
     * is asked within seconds, seldom enough that the writes waiting for an unreachable member do not pile up.
     */
    static final Duration CREATION_ASKED_AGAIN_AFTER = Duration.ofSeconds(5);

    private final PlacementSettings settings;
    private final Clock clock;
    private final Map<String, ClusterInventory> clusters = new TreeMap<>();
    private final TrackedJobs jobs = new TrackedJobs();
    private final Evictions evictions;
    private final StrandedReservations stranded;
    private final GangAttempts attempts;
    private final FinishedCopies finishedCopies = new FinishedCopies();

    public GangPlacer(PlacementSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.evictions = new Evictions(SOURCE, settings.evictionCheck(), settings.reservationTimeout());
        this.stranded = new StrandedReservations(settings.reservationTimeout(), clusters, jobs, evictions);
        this.attempts = new GangAttempts(settings, clock, clusters, jobs, stranded);
    }

    /**
     * Whether the members' inventories are known whole; while not, a gang that fits nowhere waits instead of being judged
     * never to fit. True from the start: a core fed every report in order knows them whole.
     */
    public void inventoryWhole(boolean whole) {
        attempts.inventoryWhole(whole);
    }

    /**
     * Every member cluster for the job if it were placed now, ranked, and why each other one cannot take it: what
     * {@code kubectl muster explain} shows. Changes nothing.
     */
    public GangPlanner.Options fitNow(dev.muster.model.job.PyTorchJob job, dev.muster.model.policy.PropagationPolicy policy) {
        return attempts.fitNow(job, policy);
    }

    /** The member's free GPUs on its Ready, schedulable nodes, as placement sees them (promises included); zero for an unknown member. */
    public BigDecimal freeGpu(String cluster) {
        ClusterInventory inventory = clusters.get(cluster);
        return inventory == null ? BigDecimal.ZERO : inventory.index().freeGpu();
    }

    /** The member clusters placement has heard of, in name order. */
    public Set<String> clusterNames() {
        return new TreeSet<>(clusters.keySet());
    }

    /** The cluster each bound job is on. */
    public Map<String, String> bound() {
        return jobs.boundClusters();
    }

    private static Set<EventType> readEvents() {
        Set<EventType> read = EnumSet.of(EventType.ADMITTED, EventType.PREEMPTED, EventType.WITHDRAWN, EventType.DELETED, EventType.FINISHED,
                EventType.FAILOVER_TRIGGERED, EventType.MEMBER_WRITE_ANSWERED, EventType.PLACEMENT_TICK);
        Arrays.stream(EventType.values()).filter(EventType::isMemberEvent).forEach(read::add);
        return Collections.unmodifiableSet(read);
    }

    /**
     * Consumes one event: an admission, a member observation, the end of a job, what a member answered to a write
     * ({@link #result}) or a tick ({@link #tick}).
     */
    public Decisions handle(MusterEvent event) {
        if (event instanceof MemberEvent member) {
            return observe(member.data());
        }
        if (event instanceof ConfigEvent config) {
            return config.data() instanceof PlacementTick ? tick() : Decisions.none();
        }
        JobEvent jobEvent = (JobEvent) event;
        if (jobEvent.data() instanceof MemberWriteAnswered answered) {
            return result(MemberResult.of(jobEvent.job(), answered));
        }
        String uid = jobEvent.job().uid();
        if (jobEvent.data() instanceof JobAdmitted admitted) {
            if (jobs.tracks(uid)) {
                return Decisions.none();
            }
            if (admitted.job() == null) {
                return new Decisions(List.of(jobEvent.followUp(SOURCE, jobEvent.job(), clock.instant(),
                        new PlacementFailed(Map.of(), "the admission carries no job manifest"))), List.of());
            }
            jobs.admitted(uid, new String(EventSerde.serialize(jobEvent), StandardCharsets.UTF_8));
            return attempts.admitted(jobEvent);
        }
        if (jobEvent.data() instanceof JobPreempted preempted) {
            return stop(jobEvent, preempted.by(), true);
        }
        if (jobEvent.data() instanceof JobWithdrawn) {
            return stop(jobEvent, null, true);
        }
        if (jobEvent.data() instanceof JobDeleted) {
            if (!namesItsJob(jobEvent.job())) {
                // A uid alone proves nothing about whose job it is: the queue dead-letters such a deletion, and nothing stops here.
                return Decisions.none();
            }
            Optional<FinishedCopies.FinishedCopy> finishedCopy = finishedCopies.deleted(uid);
            if (finishedCopy.isPresent()) {
                // It ran to its end; its copy goes now, asked of the member until it is gone, however long the member is away.
                jobs.changed(uid);
                return new Decisions(List.of(), List.of(evictions.start(finishedCopy.get().job(), finishedCopy.get().cluster(), jobEvent.id(), null,
                        clock.instant())));
            }
            // Its pods may take their grace period to end: stopped whole, as for a withdrawn admission, which may come after.
            return stop(jobEvent, null, false);
        }
        if (jobEvent.data() instanceof JobFinished finished) {
            if (evictions.eviction(uid).filter(eviction -> eviction.by() == null).isPresent()) {
                // Deleted (or withdrawn) while it ran, and it ended meanwhile: its copy is still to go.
                return Decisions.none();
            }
            if (jobs.endedElsewhere(uid, finished.cluster())) {
                // A copy the job left behind (a failover's) ended, not the job: it runs, or is being created, where it is bound.
                return Decisions.none();
            }
            evictions.forget(uid);
            Decisions boundFirst = boundBeforeItsAnswer(uid, finished.cluster());
            String ranOn = jobs.isBound(uid) ? jobs.boundTo(uid) : finished.cluster();
            JobRef job = jobs.boundJob(uid) != null ? jobs.boundJob(uid) : jobEvent.job();
            Decisions forgotten = boundFirst.and(attempts.forget(uid));
            if (ranOn != null) {
                finishedCopies.finished(job, ranOn);
            }
            return forgotten;
        }
        if (jobEvent.data() instanceof FailoverTriggered failover) {
            return failOver(jobEvent.job(), failover);
        }
        return Decisions.none();
    }

    /**
     * The job leaves the member it could not run on: it avoids that cluster for a while and is placed again
     * at once, keeping its quota admission. Status sync removes the old copy as the purge mode says.
     */
    private Decisions failOver(JobRef job, FailoverTriggered failover) {
        String uid = job.uid();
        String admission = jobs.admission(uid);
        if (admission == null || !failover.fromCluster().equals(jobs.boundTo(uid))) {
            return Decisions.none();
        }
        JobEvent admitted = readAdmission(admission);
        jobs.unbind(uid);
        Optional.ofNullable(clusters.get(failover.fromCluster())).ifPresent(cluster -> cluster.release(uid));
        jobs.failedOver(uid, failover.fromCluster(), clock.instant().plus(settings.failoverExclusion()));
        jobs.changed(uid);
        return attempts.place(admitted, Map.of(), 0);
    }

    /** Whether the job this placement tracks under the ref's uid, if any, is the one the ref names. */
    private boolean namesItsJob(JobRef ref) {
        String uid = ref.uid();
        JobRef tracked = jobs.boundJob(uid) != null ? jobs.boundJob(uid)
                : jobs.attempt(uid) != null ? jobs.attempt(uid).admitted().job()
                : jobs.waiting(uid) != null ? jobs.waiting(uid).admitted().job()
                : evictions.eviction(uid).map(eviction -> eviction.job())
                .or(() -> finishedCopies.copy(uid).map(FinishedCopies.FinishedCopy::job)).orElse(null);
        return tracked == null || tracked.subject().equals(ref.subject());
    }

    /**
     * Quota preempted the job for a reclaim ({@code by} names the reclaimer), withdrew its admission, or its owner deleted
     * it: whatever placement was doing with it stops, and the job is stopped whole on the member it is on or being placed
     * on. Until the member shows nothing of it, its quota stays charged.
     *
     * @param reportUnplaced whether a job on no member is reported stopped at once: quota waits for it, as it does not for
     *                       a deletion, which comes from the fleet (its withdrawal from quota follows on the admissions topic)
     */
    private Decisions stop(JobEvent event, String by, boolean reportUnplaced) {
        String uid = event.job().uid();
        if (evictions.eviction(uid).isPresent()) {
            return Decisions.none();
        }
        Attempt attempt = jobs.attempt(uid);
        String cluster = jobs.isBound(uid) ? jobs.boundTo(uid) : attempt != null ? attempt.cluster() : null;
        Decisions released = attempts.forget(uid);
        Instant now = clock.instant();
        if (cluster == null) {
            return reportUnplaced ? released.and(new Decisions(List.of(evictions.nothingToStop(event.job(), event.id(), now)), List.of())) : released;
        }
        jobs.changed(uid);
        return released.and(new Decisions(List.of(), List.of(evictions.start(event.job(), cluster, event.id(), by, now))));
    }

    /**
     * A job can run to its end on the member before placement reads the member's answer to its creation (a short job,
     * or placement restarted between the write and its answer): the binding is announced before the end, so no job ran
     * without one.
     */
    private Decisions boundBeforeItsAnswer(String uid, String cluster) {
        Attempt attempt = jobs.attempt(uid);
        if (attempt == null || attempt.reserving() || !attempt.cluster().equals(cluster)) {
            return Decisions.none();
        }
        return result(new MemberResult.JobCreated(cluster, attempt.admitted().job()));
    }

    /**
     * Whether a write that builds something on a member (reservations, a copy) is still what the job's attempt waits for.
     * One decided before the job moved on (bound by another answer, finished, deleted, placed elsewhere), and carried out
     * only now (a restart resumed it, or it waited behind slower writes), would make what nobody waits for. A write that
     * takes something away (a stop, a release) is always carried out: what it removes must go whoever asked.
     */
    public boolean stillOwed(MemberCommand command) {
        boolean reserve = command instanceof MemberCommand.Reserve;
        if (!reserve && !(command instanceof MemberCommand.CreateJob)) {
            return true;
        }
        Attempt attempt = jobs.attempt(command.job().uid());
        return attempt != null && attempt.cluster().equals(command.cluster()) && attempt.reserving() == reserve
                && (!reserve || attempt.reservations().containsAll(((MemberCommand.Reserve) command).reservations().stream()
                .map(reservation -> reservation.getMetadata().getName()).toList()));
    }

    /** What the member said to a write placement asked for. */
    public Decisions result(MemberResult result) {
        if (evictions.eviction(result.job().uid()).isPresent()) {
            Decisions answered = evictions.answered(result, clock.instant());
            jobs.changed(result.job().uid());
            return answered;
        }
        Attempt attempt = jobs.attempt(result.job().uid());
        if (attempt == null || !attempt.cluster().equals(result.cluster())) {
            return Decisions.none();
        }
        if (result instanceof MemberResult.JobCreated) {
            jobs.attemptEnds(result.job().uid());
            jobs.bind(result.job().uid(), attempt.cluster(), attempt.reservationGroup(), result.job());
            jobs.changed(result.job().uid());
            JobAdmitted admitted = (JobAdmitted) attempt.admitted().data();
            JobBound jobBound = JobBound.of(attempt.cluster(), attempt.reservationGroup(), JobDemand.of(admitted.job()).podCounts());
            return new Decisions(List.of(attempt.admitted().followUp(SOURCE, result.job(), clock.instant(), jobBound,
                    jobs.step(result.job().uid(), "bound"))), List.of());
        }
        if (result instanceof MemberResult.Unanswered unanswered) {
            return unanswered(attempt, unanswered);
        }
        MemberResult.Failed failed = (MemberResult.Failed) result;
        return attempts.abandon(attempt, failed.step() + " failed: " + failed.reason());
    }

    /**
     * A creation that got no answer may have made the copy all the same: trying the next cluster could run the job twice
     * (a storm saw it: the copy made on a member whose connection was cut as it answered, a second one made elsewhere). So
     * the member is asked again, creating being idempotent (a copy found of the same fleet job is the job's), until it
     * answers; the job is told once why it waits.
     */
    private Decisions unanswered(Attempt attempt, MemberResult.Unanswered unanswered) {
        String uid = attempt.admitted().job().uid();
        Instant now = clock.instant();
        jobs.attempts(attempt.creating(now.plus(CREATION_ASKED_AGAIN_AFTER), attempt.unanswered() + 1));
        jobs.changed(uid);
        if (attempt.unanswered() > 0) {
            return Decisions.none();
        }
        String reason = unanswered.step() + " got no answer: " + unanswered.reason();
        return new Decisions(List.of(attempt.admitted().followUp(SOURCE, attempt.admitted().job(), now, new PlacementFailed(
                Map.of(attempt.cluster(), reason), "asking member cluster " + attempt.cluster() + " again until it answers: the copy may"
                        + " exist there, and one made elsewhere could run the job twice"),
                jobs.step(uid, "unanswered on " + attempt.cluster() + " " + attempt.failed().size()))), List.of());
    }

    /**
     * Gives up on reservations a member did not confirm in time, gives back the quota of jobs that waited too
     * long, and retries waiting jobs whose backoff is over.
     */
    public Decisions tick() {
        Instant now = clock.instant();
        Decisions decisions = attempts.giveBack(now);
        for (Attempt attempt : jobs.attempts()) {
            if (attempt.reserving() && !now.isBefore(attempt.deadline())) {
                decisions = decisions.and(attempts.abandon(attempt, "reservations not confirmed within " + GoDurations.format(settings.reservationTimeout())));
            }
        }
        for (Attempt attempt : jobs.attempts()) {
            if (!attempt.reserving() && attempt.deadline() != null && !now.isBefore(attempt.deadline())) {
                jobs.attempts(attempt.creating(null, attempt.unanswered()));
                decisions = decisions.and(new Decisions(List.of(), List.of(attempts.createJob(attempt.admitted(), attempt.cluster(),
                        attempt.reservationGroup(), attempt.domain()))));
            }
        }
        Decisions asks = evictions.due(now);
        asks.commands().forEach(command -> jobs.changed(command.job().uid()));
        return decisions.and(asks).and(stranded.sweep(now)).and(stranded.releaseUnusedAfterGrace(now)).and(attempts.retryWaiting(now));
    }

    private Decisions observe(MemberEventData data) {
        if (data instanceof MemberEventData.MemberRemoved) {
            return memberLeft(data.cluster());
        }
        ClusterInventory cluster = clusters.computeIfAbsent(data.cluster(), ClusterInventory::new);
        if (data instanceof MemberEventData.MemberReported reported) {
            cluster.observe(reported.member());
        } else if (data instanceof MemberEventData.NodeReported node) {
            cluster.observe(node.node());
        } else if (data instanceof MemberEventData.NodeRemoved node) {
            cluster.nodeGone(node.node());
        } else if (data instanceof MemberEventData.PodReported pod) {
            cluster.observe(pod.pod());
            if (pod.pod().node() != null) {
                Decisions released = Decisions.none();
                for (ReservationSnapshot made : cluster.reservationsFor(pod.pod().key())) {
                    released = released.and(stranded.releaseIfStranded(data.cluster(), made, clock.instant()));
                }
                return released.and(attempts.retryWaiting(clock.instant()));
            }
        } else if (data instanceof MemberEventData.PodRemoved pod) {
            cluster.podGone(pod.namespace(), pod.name());
        } else if (data instanceof MemberEventData.ReservationReported reservation) {
            cluster.observe(reservation.reservation());
            Decisions progress = reservationProgress(data.cluster(), reservation.reservation());
            return progress.and(stranded.releaseIfStranded(data.cluster(), reservation.reservation(), clock.instant()))
                    .and(attempts.retryWaiting(clock.instant()));
        } else if (data instanceof MemberEventData.ReservationRemoved reservation) {
            cluster.reservationGone(reservation.reservation());
            stranded.gone(data.cluster(), reservation.reservation());
        }
        return attempts.retryWaiting(clock.instant());
    }

    /**
     * A member left the fleet: nothing more is placed there, and jobs being bound to it try the next cluster.
     * Jobs bound there stay bound until status sync fails them over, as their policies say.
     */
    private Decisions memberLeft(String cluster) {
        if (!clusters.containsKey(cluster)) {
            return Decisions.none();
        }
        Decisions decisions = Decisions.none();
        for (Attempt attempt : jobs.attempts()) {
            if (attempt.cluster().equals(cluster)) {
                decisions = decisions.and(attempts.abandon(attempt, "the member left the fleet"));
            }
        }
        clusters.remove(cluster);
        stranded.memberLeft(cluster);
        finishedCopies.memberLeft(cluster);
        Decisions stopped = evictions.memberLeft(cluster, clock.instant());
        stopped.events().forEach(event -> jobs.changed(event.job().uid()));
        return decisions.and(stopped).and(attempts.retryWaiting(clock.instant()));
    }

    /** A reservation of a gang being reserved changed: all Available means create the job; one Failed means try elsewhere. */
    private Decisions reservationProgress(String cluster, ReservationSnapshot reservation) {
        for (Attempt attempt : jobs.attempts()) {
            if (!attempt.reserving() || !attempt.reserved(cluster, reservation.name())) {
                continue;
            }
            if (Reservation.FAILED.equals(reservation.phase())) {
                return attempts.abandon(attempt, "reservation " + reservation.name() + " failed on the member");
            }
            ClusterInventory inventory = clusters.get(cluster);
            boolean allAvailable = attempt.reservations().stream().allMatch(name -> inventory.reservation(name)
                    .map(ReservationSnapshot::isHolding).orElse(false));
            if (allAvailable) {
                jobs.attempts(attempt.creating(null, 0));
                jobs.changed(attempt.uid());
                return new Decisions(List.of(), List.of(attempts.createJob(attempt.admitted(), cluster, attempt.reservationGroup(), attempt.domain())));
            }
        }
        return Decisions.none();
    }

    /** What changed since the last call, per job UID: its record now, or null when it is no longer placement's concern. */
    public Map<String, PlacementRecord> drainState() {
        Map<String, PlacementRecord> records = new LinkedHashMap<>();
        for (String uid : jobs.drainChanged()) {
            records.put(uid, record(uid));
        }
        return records;
    }

    private PlacementRecord record(String uid) {
        PlacementRecord tracked = jobs.record(uid);
        if (tracked != null) {
            return tracked;
        }
        return evictions.eviction(uid).map(eviction -> new PlacementRecord(PlacementRecord.Stage.EVICTING, null, eviction.cluster(), null, null,
                        null, null, null, null, 0, null, null, null, 0, eviction, null, null))
                .or(() -> finishedCopies.copy(uid).map(copy -> new PlacementRecord(PlacementRecord.Stage.FINISHED, null, copy.cluster(), null, null,
                        null, null, null, null, 0, null, null, null, 0, null, copy.job(), null)))
                .orElse(null);
    }

    /**
     * Takes over the state a previous owner left, and resumes what it was doing: the member writes of jobs
     * being reserved or created are asked for again (they are idempotent). Call before the first event.
     */
    public Decisions restore(Map<String, PlacementRecord> records) {
        List<MemberCommand> resume = new ArrayList<>();
        records.forEach((uid, record) -> {
            jobs.restore(uid, record);
            // A bound job's admission stays text until it fails over; only a job still being placed needs it read.
            JobEvent admitted = record.stage() == PlacementRecord.Stage.BOUND || record.admitted() == null ? null : readAdmission(record.admitted());
            switch (record.stage()) {
                case BOUND -> jobs.bind(uid, record.cluster(), record.reservationGroup(), record.admitted() == null ? null
                        : EventSerde.peekJob(record.admitted().getBytes(StandardCharsets.UTF_8)).orElse(null));
                case WAITING -> jobs.restoreWaiting(uid, admitted, record);
                case EVICTING -> resume.add(evictions.resume(record.eviction(), clock.instant()));
                case FINISHED -> finishedCopies.finished(record.finished(), record.cluster());
                default -> {
                    boolean reserving = record.stage() == PlacementRecord.Stage.RESERVING;
                    // A creation asked for again is asked for at once: the new owner does not know whether it was.
                    jobs.restoreAttempt(new Attempt(admitted, record.cluster(), record.reservationGroup(), record.reservations(), record.plan(),
                            reserving, reserving ? record.deadline() : null, record.failed(), record.domain(), 0));
                    ClusterInventory cluster = clusters.computeIfAbsent(record.cluster(), ClusterInventory::new);
                    List<Reservation> reservations = attempts.promise(cluster, admitted, record.plan(), record.reservationGroup());
                    resume.add(reserving ? new MemberCommand.Reserve(record.cluster(), admitted.job(), reservations)
                            : attempts.createJob(admitted, record.cluster(), record.reservationGroup(), record.domain()));
                }
            }
        });
        return new Decisions(List.of(), resume);
    }

    /**
     * Squares what a member holds under Muster's mark with placement's log, after a restart: a member copy of
     * a job the log has waiting or being placed elsewhere is adopted (the job is bound there, and anything
     * reserved for it elsewhere released), so no job runs without a binding or twice, unless the job failed over
     * from that member (the copy is the one it left, and status sync purges it); reservations no job of
     * the log is using on that member are released, so none leaks. Member copies of finished jobs (kept until
     * their deletion), or of jobs the log no longer tracks (deleted, being stopped), are left as they are.
     */
    public Decisions reconcile(MemberHoldings holdings) {
        String cluster = holdings.cluster();
        Decisions decisions = Decisions.none();
        for (String uid : holdings.jobs().keySet()) {
            Attempt attempt = jobs.attempt(uid);
            Waiting job = jobs.waiting(uid);
            if (jobs.isBound(uid) || attempt != null && attempt.cluster().equals(cluster) || attempt == null && job == null
                    || jobs.leftByFailover(uid, cluster)) {
                continue;
            }
            JobEvent admitted = attempt != null ? attempt.admitted() : job.admitted();
            if (attempt != null) {
                jobs.attemptEnds(uid);
                clusters.get(attempt.cluster()).release(uid);
                if (!attempt.reservations().isEmpty()) {
                    decisions = decisions.and(stranded.release(attempt.cluster(), admitted.job(), attempt.reservations(), clock.instant()));
                }
            }
            jobs.stopsWaiting(uid);
            List<String> reservedHere = holdings.reservationsOf(uid);
            String group = reservedHere.isEmpty() ? null : MemberWrites.groupOf(reservedHere.get(0));
            jobs.bind(uid, cluster, group, admitted.job());
            jobs.changed(uid);
            JobBound jobBound = JobBound.of(cluster, group, JobDemand.of(((JobAdmitted) admitted.data()).job()).podCounts());
            decisions = decisions.and(new Decisions(List.of(admitted.followUp(SOURCE, admitted.job(), clock.instant(), jobBound,
                    jobs.step(uid, "bound"))), List.of()));
        }
        Map<String, List<String>> leaked = new TreeMap<>();
        holdings.reservations().forEach((name, uid) -> {
            if (!jobs.usesReservation(uid, cluster, name)) {
                leaked.computeIfAbsent(uid, key -> new ArrayList<>()).add(name);
            }
        });
        for (Map.Entry<String, List<String>> entry : leaked.entrySet()) {
            JobRef owner = jobs.jobRef(entry.getKey());
            decisions = decisions.and(stranded.release(cluster, owner, entry.getValue(), clock.instant()));
        }
        return decisions;
    }

    private static JobEvent readAdmission(String json) {
        try {
            return (JobEvent) EventSerde.deserialize(json.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedEventException e) {
            throw new IllegalStateException("placement state holds an unreadable admission: " + e.getMessage(), e);
        }
    }
}
