package dev.muster.placement.core.gang;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.muster.gangfit.Workload;
import dev.muster.gangfit.WorkloadRecorder;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobGivenBack;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.TopologyDomain;
import dev.muster.model.job.TopologyRequest;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.PodRequests;
import dev.muster.model.time.GoDurations;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.PlacementSettings;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.fit.ClusterFit.Fits;
import dev.muster.placement.core.fit.Scoring;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.inventory.ClusterInventory.PlannedPod;
import dev.muster.placement.core.inventory.ClusterInventory.Promise;
import dev.muster.placement.core.topology.DomainFit;

/**
 * Tries each job on the best cluster it fits now ({@link GangPlanner}), holding the plan's capacity there until the
 * member shows it; gives up on a cluster for the next, lets a job that fits nowhere wait and tries it again after a
 * doubling backoff, gives a job back to its queue when no cluster took it for long, and rejects one no cluster could
 * ever hold. What it tries is kept in {@link TrackedJobs}; {@link GangPlacer} tells it when.
 */
final class GangAttempts {

    private final PlacementSettings settings;
    private final Clock clock;
    private final Map<String, ClusterInventory> clusters;
    private final TrackedJobs jobs;
    private final StrandedReservations stranded;
    /**
     * Whether every member's inventory has been read whole: a service reading its inventory again from the beginning
     * knows a member only in part, and judging a gang never to fit from a part of it would reject the job for good.
     */
    private boolean inventoryWhole = true;
    /** The shapes of the GPU pods admitted lately, which fragmentation is scored against (rebuilt from new admissions after a restart). */
    private final WorkloadRecorder workload = WorkloadRecorder.standard();

    GangAttempts(PlacementSettings settings, Clock clock, Map<String, ClusterInventory> clusters, TrackedJobs jobs,
                 StrandedReservations stranded) {
        this.settings = settings;
        this.clock = clock;
        this.clusters = clusters;
        this.jobs = jobs;
        this.stranded = stranded;
    }

    void inventoryWhole(boolean whole) {
        inventoryWhole = whole;
    }

    /** Every member cluster for the job if it were placed now, ranked, and why each other one cannot take it. Changes nothing. */
    GangPlanner.Options fitNow(PyTorchJob job, PropagationPolicy policy) {
        String uid = job.getMetadata() == null ? null : job.getMetadata().getUid();
        return GangPlanner.plan(job, policy, clusters.values(), uid == null ? Map.of() : jobs.exclusions(uid),
                clock.instant(), settings::fitMode, settings.topologyLevels(), scoredAgainst());
    }

    /** A job newly admitted: its pods' shapes join the workload scored against, and it is tried at once. */
    Decisions admitted(JobEvent admittedEvent) {
        ClusterFit.needs(GangPod.of(((JobAdmitted) admittedEvent.data()).job())).largestFirst().forEach(pod -> workload.record(pod.request()));
        return place(admittedEvent, Map.of(), 0);
    }

    private Decisions release(String cluster, JobRef job, List<String> reservations) {
        return stranded.release(cluster, job, reservations, clock.instant());
    }

    /** Tries the job on the best cluster it fits now, skipping those already failed for it. */
    Decisions place(JobEvent admittedEvent, Map<String, String> failed, int tries) {
        JobAdmitted admitted = (JobAdmitted) admittedEvent.data();
        JobRef job = admittedEvent.job();
        Instant now = clock.instant();
        List<ClusterInventory> candidates = clusters.values().stream().filter(cluster -> !failed.containsKey(cluster.cluster())).toList();
        GangPlanner.Options options = GangPlanner.choose(admitted.job(), admitted.policy(), candidates,
                jobs.exclusions(job.uid()), now, settings::fitMode, settings.topologyLevels(), scoredAgainst());
        Optional<Fits> best = options.best();
        if (best.isEmpty()) {
            Optional<String> never = inventoryWhole ? NeverFits.reason(admitted.job(), GangPlanner.affinity(admitted.policy()), clusters.values())
                    : Optional.empty();
            if (never.isPresent()) {
                // Waiting would hold its quota for good: the job is told why, and its quota goes back.
                forget(job.uid());
                return new Decisions(List.of(admittedEvent.followUp(GangPlacer.SOURCE, job, now, new JobRejected(List.of(never.get())),
                        jobs.step(job.uid(), "never fits"))), List.of());
            }
            Map<String, String> reasons = new TreeMap<>(options.reasons());
            reasons.putAll(failed);
            Waiting previous = jobs.waiting(job.uid());
            Instant since = previous == null ? now : previous.since();
            jobs.waits(new Waiting(admittedEvent, since, tries + 1, now.plus(backoff(tries)), reasons));
            jobs.changed(job.uid());
            if (previous != null && previous.reasons().equals(reasons)) {
                return Decisions.none();
            }
            String message = clusters.isEmpty() ? GangPlacer.NO_MEMBERS
                    : "no member cluster can take the whole gang now; placement tries again when their inventory changes";
            return new Decisions(List.of(admittedEvent.followUp(GangPlacer.SOURCE, job, now, new PlacementFailed(reasons, message),
                    jobs.step(job.uid(), "try " + (tries + 1) + " " + reasons))),
                    List.of());
        }
        jobs.stopsWaiting(job.uid());
        Fits fits = best.get();
        ClusterInventory cluster = clusters.get(fits.cluster());
        boolean reserve = cluster.member().map(member -> member.reservationSupported()).orElse(false) && !fits.plan().isEmpty();
        String group = reserve ? MemberWrites.reservationGroup(job, jobs.generation(job.uid()), failed.size()) : null;
        List<Reservation> reservations = promise(cluster, admittedEvent, fits.plan(), group);
        List<String> names = reservations.stream().map(reservation -> reservation.getMetadata().getName()).toList();
        TopologyDomain domain = domainOf(admittedEvent, cluster, fits.plan());
        jobs.attempts(new Attempt(admittedEvent, fits.cluster(), group, names, fits.plan(), reserve,
                reserve ? now.plus(settings.reservationTimeout()) : null, failed, domain, 0));
        jobs.changed(job.uid());
        JobEvent attempted = admittedEvent.followUp(GangPlacer.SOURCE, job, now, new PlacementAttempted(fits.cluster(), group,
                        fits.domain() == null ? null : fits.domain().toString()),
                jobs.step(job.uid(), fits.cluster()));
        MemberCommand command = reserve ? new MemberCommand.Reserve(fits.cluster(), job, reservations)
                : createJob(admittedEvent, fits.cluster(), null, domain);
        return new Decisions(List.of(attempted), List.of(command));
    }

    /**
     * Holds the plan's capacity on the cluster until the member shows it, and builds the reservations that
     * hold it there when {@code group} names them (one per pod, pinned to its node, owned by that pod).
     */
    List<Reservation> promise(ClusterInventory cluster, JobEvent admittedEvent, Map<String, String> plan, String group) {
        JobRef job = admittedEvent.job();
        Map<String, PlannedPod> planned = new LinkedHashMap<>();
        List<Reservation> reservations = new ArrayList<>();
        for (GangPod pod : GangPod.of(((JobAdmitted) admittedEvent.data()).job())) {
            String node = plan.get(pod.name());
            String reservationName = group != null ? MemberWrites.reservationName(group, pod) : null;
            if (node != null) {
                planned.put(pod.name(), new PlannedPod(job.namespace(), pod.name(), node, PodRequests.onNode(pod.spec()), reservationName));
            }
            if (group != null) {
                reservations.add(MemberWrites.reservation(reservationName, job, pod, node, settings.reservationTtl()));
            }
        }
        cluster.promise(new Promise(job.uid(), planned));
        return reservations;
    }

    /** Releases what the attempt holds on its cluster and tries the job on the next one. */
    Decisions abandon(Attempt attempt, String reason) {
        JobRef job = attempt.admitted().job();
        jobs.attemptEnds(job.uid());
        jobs.changed(job.uid());
        clusters.get(attempt.cluster()).release(job.uid());
        Map<String, String> failed = new TreeMap<>(attempt.failed());
        failed.put(attempt.cluster(), reason);
        // The job is told that this cluster was given up on and why, whether or not the next one takes it.
        JobEvent gaveUp = attempt.admitted().followUp(GangPlacer.SOURCE, job, clock.instant(), new PlacementFailed(Map.of(attempt.cluster(), reason),
                "gave up on member cluster " + attempt.cluster() + (attempt.reservations().isEmpty() ? "" : " and released its reservations")
                        + "; trying the next cluster"), jobs.step(job.uid(), "gave up on " + attempt.cluster() + " " + failed.size()));
        Decisions release = attempt.reservations().isEmpty() ? Decisions.none() : release(attempt.cluster(), job, attempt.reservations());
        return new Decisions(List.of(gaveUp), List.of()).and(release).and(place(attempt.admitted(), failed, 0));
    }

    /** Jobs admitted under quota that no cluster could take for {@code giveBackAfter} go back to their queue. */
    Decisions giveBack(Instant now) {
        List<JobEvent> givenBack = new ArrayList<>();
        for (Waiting job : jobs.waitingJobs()) {
            JobAdmitted admitted = (JobAdmitted) job.admitted().data();
            if (admitted.quotaLeaf() != null && !now.isBefore(job.since().plus(settings.giveBackAfter()))) {
                String uid = job.uid();
                String reason = "no member cluster could take it for " + GoDurations.format(settings.giveBackAfter()) + ": " + job.reasons();
                givenBack.add(job.admitted().followUp(GangPlacer.SOURCE, job.admitted().job(), now, new JobGivenBack(reason), jobs.step(uid, "give back")));
                jobs.givenBack(uid);
            }
        }
        return new Decisions(givenBack, List.of());
    }

    Decisions retryWaiting(Instant now) {
        Decisions decisions = Decisions.none();
        for (Waiting job : jobs.waitingJobs()) {
            if (!now.isBefore(job.notBefore())) {
                decisions = decisions.and(place(job.admitted(), Map.of(), job.tries()));
            }
        }
        return decisions;
    }

    Decisions forget(String uid) {
        Attempt attempt = jobs.forget(uid);
        clusters.values().forEach(cluster -> cluster.release(uid));
        if (attempt != null && !attempt.reservations().isEmpty()) {
            return release(attempt.cluster(), attempt.admitted().job(), attempt.reservations());
        }
        return Decisions.none();
    }

    /** The member copy of the job's current placement, its pods confined to the topology domain, if the placement chose one. */
    MemberCommand createJob(JobEvent admittedEvent, String cluster, String reservationGroup, TopologyDomain domain) {
        return MemberWrites.createJob(admittedEvent, cluster, reservationGroup, domain, jobs.generation(admittedEvent.job().uid()));
    }

    /**
     * The topology domain that holds every pod of the plan, when the job asks for one. Kept with the attempt: a new owner
     * that creates the copy before it has read the member's nodes again confines it all the same.
     */
    private TopologyDomain domainOf(JobEvent admittedEvent, ClusterInventory inventory, Map<String, String> plan) {
        JobAdmitted admitted = (JobAdmitted) admittedEvent.data();
        if (plan.isEmpty()) {
            return null;
        }
        return TopologyRequest.of(admitted.job())
                .flatMap(request -> DomainFit.of(request, settings.topologyLevels(), plan.values(), inventory.index()::node))
                .orElse(null);
    }

    /** The workload fragmentation is scored against, none when placement scores by best fit. */
    private Workload scoredAgainst() {
        return settings.scoring() == Scoring.FRAGMENTATION ? workload.workload() : Workload.NONE;
    }

    private Duration backoff(int tries) {
        Duration wait = settings.retryBackoff().multipliedBy(1L << Math.min(tries, 20));
        return wait.compareTo(settings.maxRetryBackoff()) > 0 ? settings.maxRetryBackoff() : wait;
    }
}
