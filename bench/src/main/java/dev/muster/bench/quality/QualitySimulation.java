package dev.muster.bench.quality;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.resource.ResourceNames;
import dev.muster.gangfit.Workload;
import dev.muster.gangfit.WorkloadRecorder;
import dev.muster.placement.core.fit.ClusterFit;
import dev.muster.placement.core.gang.GangPlanner;
import dev.muster.placement.core.inventory.ClusterInventory;
import dev.muster.placement.core.shard.ShardRing;
import dev.muster.placement.core.topology.TopologyLevels;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaDecision;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.QuotaTree;

/**
 * A discrete-event simulation, in virtual time, of one placement policy over a fleet and a job stream, with
 * Muster's own decision cores driven directly: {@link QuotaAdmission} admits jobs under the tenants' elastic
 * quotas, and {@link GangPlanner} chooses each admitted gang's cluster from placement's {@link ClusterInventory},
 * which learns what runs on a member {@code inventoryLag} after it changes. The members ({@link MemberCluster})
 * are the truth: they bind a gang only if it fits there when the job (or its reservation) arrives.
 * <p>
 * Without reservation, a job created where it no longer fits waits on the member; after {@code pendingTimeout}
 * (the policy's failover toleration) it fails over: a mis-placement. With reservation, the member either holds
 * the gang's capacity at once or refuses, and the job is placed again before anything was created.
 */
final class QualitySimulation {

    /** How long an admitted gang waits for a member before a sample counts it as waiting for room rather than on its way. */
    static final Duration STUCK = Duration.ofMinutes(1);

    private enum Stage { QUEUED, PLACING, RESERVING, RESERVED, CREATING, PENDING_ON_MEMBER, RUNNING, DONE }

    /** Where one job is, and what its pending events must match to still count. */
    private static final class JobState {
        final SimulatedJob job;
        Stage stage = Stage.QUEUED;
        String cluster;
        int[] nodes;
        /** The nodes placement planned for the workers, which a reservation is pinned to; empty when it planned none. */
        List<String> planned = List.of();
        long firstStart = -1;
        /** When it last went back to placement, in simulated seconds. */
        long placingSince;
        int attempt;
        long triedEpoch = -1;
        final Map<String, Instant> excludedUntil = new HashMap<>();

        JobState(SimulatedJob job) {
            this.job = job;
        }
    }

    private record Event(long time, long sequence, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            int byTime = Long.compare(time, other.time);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final PlacementPolicy policy;
    private final SimulationSettings settings;
    private final List<SimulatedJob> jobs;
    private final Map<String, MemberCluster> members = new LinkedHashMap<>();
    private final List<MemberCluster> memberList = new ArrayList<>();
    private final Map<String, ClusterInventory> views = new LinkedHashMap<>();
    private final Map<String, List<JobState>> pendingOnMember = new HashMap<>();
    private final QuotaAdmission quota;
    private final List<String> tenantNames;
    private final Map<String, JobState> states = new HashMap<>();
    private final Set<JobState> placing = new LinkedHashSet<>();
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    /** The GPU worker shapes admitted so far, which fragmentation is scored against under {@link PlacementPolicy#FRAGMENTATION}. */
    private final WorkloadRecorder workload = WorkloadRecorder.standard();
    private final GangManifests gangs;
    private final List<FleetSample> samples = new ArrayList<>();
    private final RackLocality rackLocality = new RackLocality();
    private final long fleetGpus;
    private long sequence;
    private long now;
    /** Counts the changes that may let a gang fit that did not: capacity freed, an exclusion over. */
    private long capacityEpoch;
    private boolean passRequested;
    private Consumer<String> progress = line -> { };
    private QuotaObserver observer = QuotaObserver.NONE;
    private long progressEvery = Long.MAX_VALUE;
    private long arrived;
    /** Placement split over shards, or null for one placement instance that tries each admission at once. */
    private ShardedPlanning<JobState> sharded;
    /** Admissions since the shards last decided: with shards, the admissions of one simulated second are decided together. */
    private final Set<JobState> newlyAdmitted = new LinkedHashSet<>();
    private boolean newlyAdmittedScheduled;
    private long lastPass = Long.MIN_VALUE / 2;
    private long end;

    private long waitingReports;
    private long placementCalls;
    private long placementCpuNanos;
    private long quotaCalls;
    private long quotaCpuNanos;
    private long placements;
    private long misplacements;
    private long reservationRefusals;
    private long preemptions;

    QualitySimulation(PlacementPolicy policy, SimulationSettings settings, List<TraceInputs.Node> nodes, List<TraceInputs.Tenant> tenants,
                      List<SimulatedJob> jobs) {
        this.policy = policy;
        this.settings = settings;
        this.jobs = jobs;
        this.gangs = new GangManifests(settings.topology());
        Map<String, List<TraceInputs.Node>> byCluster = new LinkedHashMap<>();
        nodes.forEach(node -> byCluster.computeIfAbsent(node.cluster(), ignored -> new ArrayList<>()).add(node));
        long cpu = 0;
        long memory = 0;
        long gpus = 0;
        for (Map.Entry<String, List<TraceInputs.Node>> cluster : byCluster.entrySet()) {
            MemberCluster member = new MemberCluster(cluster.getKey(), cluster.getValue());
            members.put(cluster.getKey(), member);
            memberList.add(member);
            ClusterInventory view = new ClusterInventory(cluster.getKey());
            view.observe(new MemberSnapshot(cluster.getKey(), true, true, Map.of(), Instant.EPOCH));
            int position = 0;
            for (TraceInputs.Node node : cluster.getValue()) {
                view.observe(new NodeSnapshot(node.name(), Map.of(TopologyLevels.RACK, RackLocality.rack(position++)), List.of(),
                        SimulatedJob.resources(node.cpuMilli(), node.memoryMib(), node.gpu())
                        .with(ResourceNames.PODS, BigDecimal.valueOf(110)), true, false));
                cpu += node.cpuMilli();
                memory += node.memoryMib();
                gpus += node.gpu();
            }
            views.put(cluster.getKey(), view);
        }
        this.fleetGpus = gpus;
        this.tenantNames = tenants.stream().map(TraceInputs.Tenant::name).toList();
        this.quota = new QuotaAdmission(QuotaTree.of(TenantQuotaTree.of(tenants, cpu, memory, gpus, settings)), QuotaSettings.defaults());
    }

    /** How many multi-node gangs were placed inside one rack, once {@link #run} has run. */
    RackLocality rackLocality() {
        return rackLocality;
    }

    /** What a run that samples the quota core (the start-time accuracy run) is told as the stream goes. */
    interface QuotaObserver {

        QuotaObserver NONE = new QuotaObserver() {
        };

        /** A Muster job arrived and the quota core decided on it. */
        default void arrived(QuotaAdmission quota, QuotaJob job, Instant now) {
        }

        default void admitted(String uid, Instant now) {
        }

        /** An admitted job's gang started on its member (again, after a failover or preemption). */
        default void started(String uid, Instant now) {
        }

        /** An admitted job ran to its end. */
        default void finished(String uid, Instant now) {
        }
    }

    QualitySimulation observing(QuotaObserver quotaObserver) {
        this.observer = quotaObserver;
        return this;
    }

    /** Says how far a run is, each tenth of the stream, for runs long enough to wonder. */
    QualitySimulation reportingProgress(Consumer<String> report) {
        this.progress = report;
        this.progressEvery = Math.max(1, jobs.size() / 10);
        return this;
    }

    /**
     * Placement split over the ring's shards, each deciding on its own thread ({@link ShardedPlanning}): the admissions of a
     * simulated second are decided together when the second's other events are done, rather than each at once.
     */
    QualitySimulation shardedOver(ShardRing ring) {
        this.sharded = new ShardedPlanning<>(ring, views.values());
        return this;
    }

    /** What the shards did, once {@link #run} has run with {@link #shardedOver}. */
    ShardedPlanning.Counts shardCounts() {
        return sharded.counts();
    }

    /** Runs the whole stream, then up to {@code drain} more for what still waits or runs. */
    SimulationResult run() {
        for (SimulatedJob job : jobs) {
            JobState state = new JobState(job);
            states.put(job.uid(), state);
            at(job.arrival(), () -> arrive(state));
        }
        long lastArrival = jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).arrival();
        end = lastArrival + settings.drain().toSeconds();
        at(0, this::sample);
        while (!events.isEmpty() && events.peek().time() <= end) {
            Event event = events.poll();
            now = event.time();
            event.action().run();
        }
        if (sharded != null) {
            sharded.close();
            placementCalls = sharded.counts().decisions();
            placementCpuNanos = sharded.counts().cpuNanos();
        }
        return SimulationResult.of(policy, jobs, states.values().stream().filter(state -> !state.job.isLocal())
                        .map(state -> new SimulationResult.JobOutcome(state.job, state.firstStart)).toList(),
                samples, lastArrival, placements, misplacements, reservationRefusals, preemptions, waitingReports, placementCalls,
                placementCpuNanos, quotaCalls, quotaCpuNanos);
    }

    // --- arrivals and quota ------------------------------------------------------------------------------

    private void arrive(JobState state) {
        SimulatedJob job = state.job;
        arrived++;
        if (arrived % progressEvery == 0) {
            progress.accept(String.format(Locale.ROOT, "%,d of %,d jobs arrived (%.1f simulated hours)", arrived, jobs.size(), now / 3600.0));
        }
        if (job.isLocal()) {
            MemberCluster member = memberList.get(job.localCluster() % memberList.size());
            state.cluster = member.name();
            bindOrWait(state, member);
            return;
        }
        QuotaJob quotaJob = new QuotaJob(job.uid(), job.tenant(), job.uid(), job.demand(), 0, Instant.EPOCH.plusSeconds(job.arrival()), job.id());
        decide(() -> quota.submit(quotaJob, instant()));
        observer.arrived(quota, quotaJob, instant());
    }

    private void apply(List<QuotaDecision> decisions) {
        for (QuotaDecision decision : decisions) {
            if (decision instanceof QuotaDecision.Waiting) {
                waitingReports++;
            } else if (decision instanceof QuotaDecision.Admitted admitted) {
                observer.admitted(admitted.job().uid(), instant());
                JobState state = states.get(admitted.job().uid());
                for (int worker = 0; worker < state.job.workers(); worker++) {
                    workload.record(state.job.workerRequest());
                }
                state.stage = Stage.PLACING;
                state.placingSince = now;
                state.triedEpoch = -1;
                placing.add(state);
                if (sharded == null) {
                    tryToPlace(state, new HashSet<>());
                } else {
                    placeLater(state);
                }
            } else if (decision instanceof QuotaDecision.Preempted preempted) {
                preempt(states.get(preempted.job().uid()));
            }
        }
    }

    private void release(JobState state) {
        decide(() -> quota.release(state.job.uid(), instant()));
    }

    /** One call of the quota core, its CPU time counted, and its decisions carried out. */
    private void decide(java.util.function.Supplier<List<QuotaDecision>> call) {
        long begin = CPU.getCurrentThreadCpuTime();
        List<QuotaDecision> decisions = call.get();
        quotaCpuNanos += CPU.getCurrentThreadCpuTime() - begin;
        quotaCalls++;
        apply(decisions);
    }

    // --- placement ------------------------------------------------------------------------------------------

    /** A pass over every waiting gang, at most once per retry interval. */
    private void requestPass() {
        if (!passRequested) {
            passRequested = true;
            at(Math.max(now, lastPass + settings.retryInterval().toSeconds()), this::pass);
        }
    }

    /** Tries every admitted job not yet placed, in admission order; one that did not fit waits for capacity to change. */
    private void pass() {
        passRequested = false;
        lastPass = now;
        if (sharded != null) {
            placeSharded(placing.stream().filter(state -> state.triedEpoch != capacityEpoch).toList());
            return;
        }
        // Within a pass capacity only shrinks, so a gang that fit nowhere rules out every later one of the same shape.
        Set<PyTorchJob> fitNowhere = new HashSet<>();
        for (JobState state : new ArrayList<>(placing)) {
            if (state.triedEpoch != capacityEpoch) {
                tryToPlace(state, fitNowhere);
            }
        }
    }

    private void tryToPlace(JobState state, Set<PyTorchJob> fitNowhere) {
        boolean unrestricted = state.excludedUntil.values().stream().noneMatch(until -> until.isAfter(instant()));
        if (unrestricted && fitNowhere.contains(gangs.of(state.job))) {
            state.triedEpoch = capacityEpoch;
            return;
        }
        long begin = CPU.getCurrentThreadCpuTime();
        GangPlanner.Options options = GangPlanner.choose(gangs.of(state.job), null, views.values(), state.excludedUntil, instant(),
                cluster -> policy.mode(), TopologyLevels.DEFAULT, policy.scoresFragmentation() ? workload.workload() : Workload.NONE);
        placementCpuNanos += CPU.getCurrentThreadCpuTime() - begin;
        placementCalls++;
        if (options.best().isPresent()) {
            decide(state, options.best().get());
        } else {
            state.triedEpoch = capacityEpoch;
            if (unrestricted) {
                fitNowhere.add(gangs.of(state.job));
            }
        }
    }

    private void placeLater(JobState state) {
        newlyAdmitted.add(state);
        if (!newlyAdmittedScheduled) {
            newlyAdmittedScheduled = true;
            at(now, () -> {
                newlyAdmittedScheduled = false;
                // One preempted meanwhile is back in the queue; one placed again by a pass is placed.
                List<JobState> admitted = newlyAdmitted.stream().filter(waiting -> waiting.stage == Stage.PLACING && waiting.triedEpoch == -1).toList();
                newlyAdmitted.clear();
                placeSharded(admitted);
            });
        }
    }

    /** The gangs decided on by the shards at once, each round the ring from its home shard; one that fit nowhere waits. */
    private void placeSharded(List<JobState> waiting) {
        if (waiting.isEmpty()) {
            return;
        }
        List<ShardedPlanning.Attempt<JobState>> attempts = new ArrayList<>(waiting.size());
        waiting.forEach(state -> attempts.add(new ShardedPlanning.Attempt<>(state, state.job.uid(), gangs.of(state.job), state.excludedUntil)));
        Workload scored = policy.scoresFragmentation() ? workload.workload() : Workload.NONE;
        for (ShardedPlanning.Outcome<JobState> outcome : sharded.place(attempts, instant(), policy.mode(), TopologyLevels.DEFAULT, scored,
                (attempt, fits) -> promise(attempt.job().job, fits))) {
            if (outcome.placed()) {
                decide(outcome.attempt().job(), outcome.fits(), true);
            } else {
                outcome.attempt().job().triedEpoch = capacityEpoch;
            }
        }
    }

    private void decide(JobState state, ClusterFit.Fits fits) {
        decide(state, fits, false);
    }

    private void decide(JobState state, ClusterFit.Fits fits, boolean promised) {
        if (!placing.remove(state)) {
            throw new IllegalStateException(state.job.uid() + " was bound twice: placed while it was not waiting for placement");
        }
        placements++;
        state.cluster = fits.cluster();
        state.planned = List.copyOf(fits.plan().values());
        int attempt = ++state.attempt;
        if (!promised) {
            promise(state.job, fits);
        }
        if (policy.reserves()) {
            state.stage = Stage.RESERVING;
            after(settings.reserveDelay(), () -> reserve(state, attempt));
        } else {
            state.stage = Stage.CREATING;
            after(settings.createDelay(), () -> create(state, attempt));
        }
    }

    /**
     * Placement holds its plan in its inventory until the member shows the pods, so later decisions do not count it free.
     * Touches the chosen member's view only (and the rack count, which is synchronized), so shards may promise at once on
     * their own members.
     */
    private void promise(SimulatedJob job, ClusterFit.Fits fits) {
        // Read before the promise changes the member's index, which the decision has just built.
        rackLocality.placed(fits.plan(), views.get(fits.cluster()));
        if (!fits.plan().isEmpty()) {
            Map<String, ClusterInventory.PlannedPod> pods = new LinkedHashMap<>();
            int i = 0;
            for (String node : fits.plan().values()) {
                String name = job.podName(i++);
                pods.put(name, new ClusterInventory.PlannedPod(job.tenant(), name, node, job.workerRequest(), null));
            }
            views.get(fits.cluster()).promise(new ClusterInventory.Promise(job.uid(), pods));
        }
    }

    private void reserve(JobState state, int attempt) {
        if (state.attempt != attempt || state.stage != Stage.RESERVING) {
            return;
        }
        MemberCluster member = members.get(state.cluster);
        // A reservation is pinned to the node placement planned for it, as Muster's are.
        int[] nodes = state.planned.isEmpty() ? member.bind(state.job.worker(), state.job.workers())
                : member.bindAt(state.job.worker(), state.planned);
        if (nodes == null) {
            // Refused before anything was created: placed again, elsewhere for a while.
            reservationRefusals++;
            backToPlacement(state, settings.refusedExclusion());
            return;
        }
        state.nodes = nodes;
        state.stage = Stage.RESERVED;
        show(state);
        after(settings.createDelay(), () -> {
            if (state.attempt == attempt && state.stage == Stage.RESERVED) {
                start(state);
            }
        });
    }

    private void create(JobState state, int attempt) {
        if (state.attempt != attempt || state.stage != Stage.CREATING) {
            return;
        }
        MemberCluster member = members.get(state.cluster);
        if (!bindOrWait(state, member)) {
            after(settings.pendingTimeout(), () -> {
                if (state.attempt == attempt && state.stage == Stage.PENDING_ON_MEMBER) {
                    // Bound where it could not start: failover.
                    misplacements++;
                    pendingOnMember.get(state.cluster).remove(state);
                    backToPlacement(state, settings.failoverExclusion());
                }
            });
        }
    }

    private void backToPlacement(JobState state, Duration exclusion) {
        views.get(state.cluster).release(state.job.uid());
        state.excludedUntil.put(state.cluster, instant().plus(exclusion));
        state.attempt++;
        state.stage = Stage.PLACING;
        state.placingSince = now;
        state.cluster = null;
        state.triedEpoch = -1;
        placing.add(state);
        after(exclusion, this::capacityChanged);
        capacityChanged();
    }

    // --- members ------------------------------------------------------------------------------------------------

    /** The member binds the gang now if it fits, else it waits there (members back-fill their pending pods). */
    private boolean bindOrWait(JobState state, MemberCluster member) {
        int[] nodes = member.bind(state.job.worker(), state.job.workers());
        if (nodes != null) {
            state.nodes = nodes;
            show(state);
            start(state);
            return true;
        }
        state.stage = Stage.PENDING_ON_MEMBER;
        pendingOnMember.computeIfAbsent(member.name(), ignored -> new ArrayList<>()).add(state);
        return false;
    }

    private void start(JobState state) {
        state.stage = Stage.RUNNING;
        if (!state.job.isLocal()) {
            observer.started(state.job.uid(), instant());
        }
        if (state.firstStart < 0) {
            state.firstStart = now;
        }
        int attempt = state.attempt;
        after(Duration.ofSeconds(state.job.duration()), () -> {
            if (state.attempt == attempt && state.stage == Stage.RUNNING) {
                finish(state);
            }
        });
    }

    private void finish(JobState state) {
        state.stage = Stage.DONE;
        free(state);
        if (!state.job.isLocal()) {
            observer.finished(state.job.uid(), instant());
            release(state);
        }
    }

    /** The member gives the job's capacity back, binds what waits there and fits now, and reports it all later. */
    private void free(JobState state) {
        MemberCluster member = members.get(state.cluster);
        member.release(state.job.worker(), state.nodes);
        hide(state, state.nodes);
        state.nodes = null;
        List<JobState> pending = pendingOnMember.getOrDefault(member.name(), List.of());
        for (JobState waiting : new ArrayList<>(pending)) {
            int[] nodes = member.bind(waiting.job.worker(), waiting.job.workers());
            if (nodes != null) {
                pending.remove(waiting);
                waiting.nodes = nodes;
                show(waiting);
                start(waiting);
            }
        }
    }

    private void preempt(JobState state) {
        preemptions++;
        switch (state.stage) {
            case PLACING -> placing.remove(state);
            case RESERVING, CREATING -> views.get(state.cluster).release(state.job.uid());
            case PENDING_ON_MEMBER -> {
                pendingOnMember.get(state.cluster).remove(state);
                views.get(state.cluster).release(state.job.uid());
            }
            case RESERVED, RUNNING -> free(state);
            default -> {
            }
        }
        state.attempt++;
        state.stage = Stage.QUEUED;
        // Its quota is released when placement reports it stopped, once the member's pods are gone.
        after(settings.inventoryLag(), () -> stopped(state));
    }

    private void stopped(JobState state) {
        decide(() -> quota.stopped(state.job.uid(), instant()));
    }

    /** Placement's inventory learns of the job's pods on the member after the lag, which also ends its promise. */
    private void show(JobState state) {
        SimulatedJob job = state.job;
        MemberCluster member = members.get(state.cluster);
        List<PodSnapshot> pods = new ArrayList<>();
        for (int i = 0; i < state.nodes.length; i++) {
            pods.add(new PodSnapshot(job.namespace(), job.podName(i), member.nodeName(state.nodes[i]), job.workerRequest(), false));
        }
        ClusterInventory view = views.get(member.name());
        after(settings.inventoryLag(), () -> {
            pods.forEach(view::observe);
            view.release(job.uid());
        });
    }

    private void hide(JobState state, int[] nodes) {
        SimulatedJob job = state.job;
        ClusterInventory view = views.get(state.cluster);
        after(settings.inventoryLag(), () -> {
            for (int i = 0; i < nodes.length; i++) {
                view.podGone(job.namespace(), job.podName(i));
            }
            capacityChanged();
        });
    }

    private void capacityChanged() {
        capacityEpoch++;
        requestPass();
    }

    // --- samples -------------------------------------------------------------------------------------------------

    private void sample() {
        long used = memberList.stream().mapToLong(MemberCluster::usedGpus).sum();
        int waiting = 0;
        int placing = 0;
        int running = 0;
        Set<String> contending = new java.util.TreeSet<>();
        Set<SimulatedJob.PodShape> admittedShapes = new HashSet<>();
        Set<SimulatedJob.PodShape> heldShapes = new HashSet<>();
        for (JobState state : states.values()) {
            if (state.job.isLocal() || state.job.arrival() > now) {
                continue;
            }
            if (state.stage == Stage.RUNNING) {
                running++;
            } else if (state.stage != Stage.DONE) {
                waiting++;
                if (state.stage == Stage.QUEUED) {
                    contending.add(state.job.tenant());
                    heldShapes.add(state.job.worker());
                } else if (state.stage == Stage.PLACING) {
                    if (now - state.placingSince >= STUCK.toSeconds()) {
                        placing++;
                    }
                    admittedShapes.add(state.job.worker());
                }
            }
        }
        IdleGpus idle = IdleGpus.of(memberList, admittedShapes, heldShapes);
        Map<String, Long> gpusByTenant = new java.util.TreeMap<>();
        tenantNames.forEach(tenant -> gpusByTenant.put(tenant, quota.usage(tenant).amount(ResourceNames.GPU).longValue()));
        samples.add(new FleetSample(now, fleetGpus == 0 ? 0 : (double) used / fleetGpus, waiting, placing, running, gpusByTenant, contending, idle));
        // Sampling stops with the last job: nothing else is left to happen.
        if (now + settings.sampleInterval().toSeconds() <= end && !events.isEmpty()) {
            after(settings.sampleInterval(), this::sample);
        }
    }

    // --- helpers ---------------------------------------------------------------------------------------------------

    private void at(long time, Runnable action) {
        events.add(new Event(time, sequence++, action));
    }

    private void after(Duration delay, Runnable action) {
        at(now + delay.toSeconds(), action);
    }

    private Instant instant() {
        return Instant.EPOCH.plusSeconds(now);
    }
}
