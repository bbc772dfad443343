package dev.muster.queue.core.queueing;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEventData;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobGivenBack;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobShown;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.PolicyDeleted;
import dev.muster.model.event.PriorityClassApplied;
import dev.muster.model.event.PriorityClassDeleted;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.event.QuotaTreeDeleted;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.JobManifest;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobValidator;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.validation.Violation;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaDecision;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaSettings;
import dev.muster.queue.core.quota.QuotaTree;

/**
 * The queue service's whole decision: every event it consumes (submissions, deletions, finished jobs, jobs
 * placement gives back or stopped for a reclaim, policy and quota tree changes) in, the queued, admitted, rejected and preempted events out, and the
 * state records that let a restarted service carry on exactly where this one stopped.
 * <p>
 * A submitted job is validated, resolved once against the policies, and then either bypasses quota
 * (admitted at once, when its policy does not suspend scheduling) or waits in the quota core. A job no
 * policy matches is not Muster's: it produces no event, but is kept, so that a policy applied later picks it up.
 * Not thread-safe: the service feeds it one event at a time.
 */
public final class FleetQueue {

    public static final String SOURCE = "/muster/queue-service";
    /** The event types {@link #handle} acts on: configuration, and a job's arrival, end and return; it passes over every other. */
    public static final Set<EventType> READS = Collections.unmodifiableSet(EnumSet.of(EventType.POLICY_APPLIED, EventType.POLICY_DELETED,
            EventType.QUOTA_TREE_APPLIED, EventType.QUOTA_TREE_DELETED, EventType.PRIORITY_CLASS_APPLIED, EventType.PRIORITY_CLASS_DELETED,
            EventType.QUEUE_TICK,
            EventType.SUBMITTED, EventType.FINISHED, EventType.DELETED, EventType.GIVEN_BACK, EventType.REJECTED,
            EventType.EVICTED, EventType.BOUND, EventType.SHOWN));
    private static final System.Logger LOG = System.getLogger(FleetQueue.class.getName());

    private final QuotaSettings settings;
    /** The waiting jobs' start-time estimates, worked out at most every 10 s: the views ask for them one job at a time. */
    private final StartTimes startTimes;
    private final Clock clock;
    private final Map<String, TrackedJob> jobs = new LinkedHashMap<>();
    private final java.util.Set<String> finished = new java.util.HashSet<>();
    private final JobNames names = new JobNames();
    private final Map<String, byte[]> pendingState = new LinkedHashMap<>();
    private final FleetApiObjects fleetApiObjects = new FleetApiObjects(pendingState);
    private final AppliedAgain appliedAgain = new AppliedAgain(pendingState);
    private final ConfigurationInForce configuration = new ConfigurationInForce(pendingState);
    private final DecisionEvents decisionEvents;
    /** The jobs whose binding is in the state topic, to remove with them. */
    private final java.util.Set<String> recordedBindings = new java.util.HashSet<>();
    private QuotaAdmission quota;
    private long sequence;
    /** Whether the quota core's passes wait for {@link #batchEnded}. */
    private boolean batched;
    /** The last event handled whose change owes the quota core a pass: what the pass's decisions follow from. */
    private MusterEvent owedTo;

    public FleetQueue(QuotaSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.quota = new QuotaAdmission(null, settings);
        this.startTimes = new StartTimes(settings, java.time.Duration.ofSeconds(10));
        this.decisionEvents = new DecisionEvents(jobs, startTimes);
    }

    /**
     * This queue, evaluating its waiting jobs once a batch of consumed events rather than once an event: the decisions
     * the events lead to come from {@link #batchEnded} (see {@link QuotaAdmission#deferPasses}).
     */
    public FleetQueue batched() {
        batched = true;
        quota.deferPasses();
        return this;
    }

    /** The decisions of the pass the batch's events owe the quota core, with the state they change; none unless {@link #batched}. */
    public List<MusterEvent> batchEnded() {
        if (!quota.owesPass()) {
            return List.of();
        }
        Instant now = clock.instant();
        List<MusterEvent> out = toEvents(quota.flush(now), owedTo, now);
        owedTo = null;
        recordChanges();
        return out;
    }

    /** A queue in the state its persisted records describe. */
    public static FleetQueue restore(QuotaSettings settings, Clock clock, Collection<Entry> records) {
        FleetQueue queue = new FleetQueue(settings, clock);
        List<JobStanding> standings = new ArrayList<>();
        Map<String, Instant> bindings = new java.util.HashMap<>();
        Map<PropagationPolicy, PropagationPolicy> sharedPolicies = new java.util.HashMap<>();
        for (Entry record : records) {
            if (record.value() == null) {
                continue;
            }
            if (queue.configuration.restore(record) || queue.appliedAgain.restore(record) || queue.fleetApiObjects.restore(record)) {
                continue;
            }
            if (QueueState.FINISHED.holds(record.key())) {
                queue.finished.add(QueueState.FINISHED.read(record.value()).uid());
            } else if (QueueState.NAMES.holds(record.key())) {
                queue.names.claim(QueueState.NAMES.read(record.value()));
            } else if (QueueState.BOUND.holds(record.key())) {
                bindings.put(record.key().substring(QueueState.BOUND.key("").length()), QueueState.BOUND.read(record.value()));
            } else if (QueueState.JOBS.holds(record.key())) {
                TrackedJob job = QueueState.JOBS.read(record.value());
                if (job.policy() != null) {
                    // Each record carries its job's policy; the jobs a policy selected share one copy again, as before the restart.
                    job = new TrackedJob(job.ref(), job.job(), sharedPolicies.computeIfAbsent(job.policy(), policy -> policy), job.demand(),
                            job.standing(), job.priority());
                }
                queue.jobs.put(job.ref().uid(), job);
                if (job.standing() != null) {
                    standings.add(job.standing());
                    queue.sequence = Math.max(queue.sequence, job.standing().job().sequence());
                }
            }
        }
        QuotaTree tree = queue.configuration.treeInForce().map(QuotaTree::of).orElse(null);
        queue.quota = QuotaAdmission.restore(tree, settings, standings);
        queue.jobs.forEach((uid, job) -> {
            if (bindings.containsKey(uid)) {
                queue.recordedBindings.add(uid);
            }
            if (job.standing() != null && job.standing().admitted()) {
                // Admitted and bound: it runs from its binding. Admitted and not bound (or bound while the queue was down,
                // a binding it reads next): not started yet.
                queue.startTimes.admitted(uid);
                if (bindings.containsKey(uid)) {
                    queue.startTimes.restored(uid, bindings.get(uid), job.standing().admittedAt());
                }
            }
        });
        return queue;
    }

    /**
     * The events one consumed event leads to.
     *
     * @throws RejectedEventException for an invalid job (naming it) or a configuration change that cannot be
     *                                accepted, with every reason
     */
    public List<MusterEvent> handle(MusterEvent event) {
        try {
            return decide(event);
        } finally {
            if (batched && quota.owesPass()) {
                owedTo = event;
            }
        }
    }

    private List<MusterEvent> decide(MusterEvent event) {
        Instant now = clock.instant();
        List<MusterEvent> out = new ArrayList<>();
        if (event instanceof ConfigEvent config) {
            List<QuotaDecision> decisions = switch (config.type()) {
                case POLICY_APPLIED -> applyPolicy(((PolicyApplied) config.data()).policy(), event, now, out);
                case POLICY_DELETED -> {
                    configuration.deletePolicy((PolicyDeleted) config.data(), event, now, out);
                    yield List.of();
                }
                case QUOTA_TREE_APPLIED -> configuration.applyTree(((QuotaTreeApplied) config.data()).tree(), quota, event, now, out);
                case QUOTA_TREE_DELETED -> configuration.deleteTree((QuotaTreeDeleted) config.data(), quota, event, now, out);
                case PRIORITY_CLASS_APPLIED -> {
                    configuration.applyPriorityClass((PriorityClassApplied) config.data());
                    yield List.of();
                }
                case PRIORITY_CLASS_DELETED -> {
                    configuration.deletePriorityClass((PriorityClassDeleted) config.data());
                    yield List.of();
                }
                case QUEUE_TICK -> quota.reevaluate(now);
                default -> List.of();
            };
            out.addAll(toEvents(decisions, event, now));
            if (config.type() == EventType.QUEUE_TICK) {
                out.addAll(decisionEvents.estimatesMoved(quota, event, now));
            }
        } else if (event instanceof JobEvent job) {
            if (job.data() instanceof JobSubmitted submitted) {
                submit(job, submitted, now, out);
            } else if (job.data() instanceof JobFinished || job.data() instanceof JobRejected) {
                // Finished on its member, or refused by placement (no member could ever hold it): its quota is free again.
                if (job.data() instanceof JobFinished) {
                    quota.standing(job.job().uid()).filter(JobStanding::admitted)
                            .ifPresent(ran -> startTimes.finished(job.job().uid(), ran.leaf(), ran.admittedAt(), now));
                }
                if (finished.add(job.job().uid())) {
                    pendingState.put(QueueState.FINISHED.key(job.job().uid()), QueueState.encode(job.job()));
                }
                out.addAll(toEvents(release(job.job().uid(), now), event, now));
            } else if (job.data() instanceof JobDeleted) {
                delete(job, now, out);
                appliedAgain.deleted(job.job().uid()).ifPresent(waited -> submitWaited(waited, now, out));
            } else if (job.data() instanceof JobShown shownAs) {
                shown(job.job(), shownAs.objectUid());
            } else if (job.data() instanceof JobBound) {
                // Only the start-time estimate cares: an admitted job runs from its binding, kept across a restart.
                Instant boundAt = job.time() == null ? now : job.time();
                if (startTimes.bound(job.job().uid(), boundAt) && jobs.containsKey(job.job().uid())) {
                    pendingState.put(QueueState.BOUND.key(job.job().uid()), QueueState.encode(boundAt));
                    recordedBindings.add(job.job().uid());
                }
            } else if (job.data() instanceof JobGivenBack) {
                out.addAll(toEvents(quota.giveBack(job.job().uid(), now), event, now));
            } else if (job.data() instanceof JobEvicted) {
                // A preempted or deleted job stopped on its member: only now does its quota go to the next job.
                boolean withdrawn = quota.standing(job.job().uid()).map(JobStanding::withdrawn).orElse(false);
                out.addAll(toEvents(quota.stopped(job.job().uid(), now), event, now));
                if (withdrawn) {
                    forget(job.job().uid());
                }
            }
        }
        recordChanges();
        return out;
    }

    /**
     * A change of configuration that could not even be read: refused, as an invalid one is, and what was in force
     * stays in force. What {@code EventProcessor} calls for such a record.
     */
    public List<MusterEvent> refuseUnreadable(ConfigRef object, List<String> reasons) {
        return List.of(configuration.refuse(object, reasons, clock.instant(), null));
    }

    /** The last refused change of each configuration object that is still refused, for the views. */
    public Collection<QueueState.ConfigRefusal> refusals() {
        return configuration.refusals();
    }

    /** The tree in force, if any: the last one accepted. */
    public Optional<ElasticQuotaTree> treeInForce() {
        return configuration.treeInForce();
    }

    /** The state records changed by the events handled since the last call, for the compacted state topic. */
    public List<Entry> drainState() {
        List<Entry> drained = new ArrayList<>();
        pendingState.forEach((key, value) -> drained.add(new Entry(key, value)));
        pendingState.clear();
        return drained;
    }

    /**
     * The jobs with an object on the fleet API that are not deleted yet (applied there, or shown there by status sync):
     * each must still have its object there, and one that has not was deleted while nobody watched (the queue down, its
     * deletion event lost with the process).
     */
    public List<JobRef> fleetApiJobs() {
        return fleetApiObjects.refs();
    }

    /** {@link #fleetApiJobs()}, each with the object a Kafka job was first shown with. */
    public List<FleetApiJob> fleetApiObjects() {
        return fleetApiObjects.objects();
    }

    /** The jobs tracked now, for metrics and explanations. */
    public Collection<TrackedJob> jobs() {
        return List.copyOf(jobs.values());
    }

    /** Where the job of this name stands, if the queue holds it (jobs admitted without queueing are not held). */
    public Optional<dev.muster.model.queue.JobQueueView> view(String namespace, String name) {
        return jobs.values().stream().filter(tracked -> tracked.ref().namespace().equals(namespace) && tracked.ref().name().equals(name))
                .findFirst().map(tracked -> QueueViews.job(tracked, quota));
    }

    public QuotaAdmission quota() {
        return quota;
    }

    /** The waiting jobs' start-time estimates: their cache, and what a replay needs ({@link #startTimeInputs}). */
    public StartTimes startTimes() {
        return startTimes;
    }

    /** A copy of what a start-time replay needs, for {@link StartTimes#compute} to run apart from the queue. */
    public Optional<StartTimes.Inputs> startTimeInputs() {
        return startTimes.inputs(quota, jobs.values());
    }

    /**
     * Each quota node's usage, with when the first job waiting under it is expected to start, as the estimates were last
     * worked out: what {@code kubectl muster queues} shows.
     */
    public List<dev.muster.model.quota.QuotaUsageRow> usageReport() {
        return QueueViews.usage(quota, startTimes);
    }

    /** The job's view with its start-time estimate, worked out here when stale: for one thread that holds the queue alone. */
    public Optional<dev.muster.model.queue.JobQueueView> viewWithEstimate(String namespace, String name) {
        Instant now = clock.instant();
        if (startTimes.stale(now)) {
            startTimeInputs().ifPresent(inputs -> startTimes.compute(inputs, now));
        }
        return view(namespace, name).map(startTimes::annotate);
    }

    // --- jobs -------------------------------------------------------------------------------------------------

    private void submit(JobEvent event, JobSubmitted submitted, Instant now, List<MusterEvent> out) {
        PyTorchJob job = submitted.job();
        String uid = event.job().uid();
        if (names.holds(event.job()) || jobs.containsKey(uid) || finished.contains(uid)) {
            // Already queued, or already ran: a job listed again after a restart is not run twice.
            return;
        }
        Optional<String> conflict = names.conflict(event.job());
        if (conflict.isPresent()) {
            Optional<JobRef> replaced = replacedOnTheFleetApi(event);
            if (replaced.isPresent()) {
                appliedAgain.waitFor(replaced.get(), event);
                return;
            }
            throw new RejectedEventException(event.job(), List.of(conflict.get()));
        }
        // From here the job holds its name until it is deleted, accepted or not, as its object does on the fleet API.
        names.claim(event.job());
        pendingState.put(QueueState.NAMES.key(uid), QueueState.encode(event.job()));
        if (FleetJobs.INGRESS_SOURCE.equals(event.source())) {
            fleetApiObjects.applied(event.job());
        }
        if (job == null) {
            throw new RejectedEventException(event.job(), List.of("data.job: is required"));
        }
        List<Violation> violations = PyTorchJobValidator.validate(job);
        if (!violations.isEmpty()) {
            // Bad input: dead-lettered with the payload, and the job told every reason (see EventProcessor).
            throw new RejectedEventException(event.job(), violations.stream().map(Violation::toString).toList());
        }
        int priority = configuration.priorityOf(event, submitted);
        ResourceList demand = JobDemand.of(job).total();
        Optional<PropagationPolicy> policy = configuration.policyOf(job);
        if (policy.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "job " + event.job() + " matches no PropagationPolicy; it is not Muster's until one does");
            TrackedJob tracked = new TrackedJob(event.job(), JobManifest.of(job), null, demand, null, priority);
            jobs.put(uid, tracked);
            pendingState.put(QueueState.JOBS.key(uid), QueueState.encode(tracked));
            return;
        }
        if (policy.get().getSpec().queued()) {
            Optional<String> never = quota.neverFits(event.job().namespace(), demand);
            if (never.isPresent()) {
                throw new RejectedEventException(event.job(), List.of(never.get()));
            }
        }
        out.addAll(place(event.job(), job, () -> JobManifest.of(job), demand, priority, policy.get(), event, now));
    }

    /** A job that waited for its name: refused now, it is told so, and the deletion that freed the name stands. */
    private void submitWaited(JobEvent waited, Instant now, List<MusterEvent> out) {
        try {
            submit(waited, (JobSubmitted) waited.data(), now, out);
        } catch (RejectedEventException e) {
            out.add(followUp(waited, waited.job(), now, new JobRejected(e.reasons())));
        }
    }

    /**
     * The job holding the name of a job applied on the fleet API, when that job's object there is known to be another:
     * the fleet API holds one object of a name, so the holder's was deleted (see {@link AppliedAgain}).
     */
    private Optional<JobRef> replacedOnTheFleetApi(JobEvent event) {
        if (!FleetJobs.INGRESS_SOURCE.equals(event.source())) {
            return Optional.empty();
        }
        return names.holderOfName(event.job().subject()).filter(holder -> !holder.uid().equals(event.job().uid()))
                .filter(holder -> fleetApiObjects.objectUid(holder.uid()).filter(objectUid -> !objectUid.equals(event.job().uid())).isPresent());
    }

    /**
     * Status sync wrote the fleet object of a job submitted on Kafka: from now on the job is deleted when that object is,
     * as one applied there is. Not for a uid the queue holds under another name: a uid alone proves nothing about whose
     * job it is. One the queue does not hold is looked for all the same: its submission may be read after this report
     * (the two come on different topics, and a queue reading its backlog after a restart reads them in any order; a long
     * storm lost 93 deletions so). If it was deleted before, its object is gone, and the deletion the check for missed
     * deletions then sends clears it.
     * The first object it is shown with is the job's ({@link FleetApiObjects#shown}).
     */
    private void shown(JobRef job, String objectUid) {
        boolean heldByAnother = names.holder(job.uid()).map(holder -> !holder.subject().equals(job.subject())).orElse(false);
        if (!heldByAnother) {
            fleetApiObjects.shown(job, objectUid);
        }
    }

    /**
     * The owner deleted the job: its quota is released and its name is free. A deletion of a job Muster never had is
     * refused with a reason a producer can find, unless the fleet API reports it: an object deleted there existed,
     * even if its submission could not be read.
     */
    private void delete(JobEvent event, Instant now, List<MusterEvent> out) {
        String uid = event.job().uid();
        Optional<JobRef> deleted = names.holder(uid).or(() -> Optional.ofNullable(jobs.get(uid)).map(TrackedJob::ref));
        if (deleted.isPresent() && !deleted.get().subject().equals(event.job().subject())) {
            // A uid alone proves nothing about whose job it is: a submitter may delete in its own namespaces only, so the
            // deletion must name the job it deletes. Nothing is told to either job: the sender may not write to the other.
            throw new RejectedEventException("deletion refused: jobuid " + uid + " is not job " + event.job().subject());
        }
        boolean known = names.release(uid) | finished.remove(uid) | jobs.containsKey(uid);
        if (!known) {
            if (FleetJobs.INGRESS_SOURCE.equals(event.source())) {
                // An object the fleet API no longer has, of a job the queue does not hold (deleted before status sync's
                // report of it was read): nothing is left to look for.
                fleetApiObjects.deleted(uid);
                return;
            }
            throw new RejectedEventException(event.job(), List.of("deletion refused: Muster has no job " + event.job().subject()
                    + " with jobuid " + uid));
        }
        pendingState.put(QueueState.NAMES.key(uid), null);
        pendingState.put(QueueState.FINISHED.key(uid), null);
        fleetApiObjects.deleted(uid);
        if (jobs.containsKey(uid) && quota.withdraw(uid)) {
            // Its pods may take their grace period to end: its quota is released once placement has stopped it.
            out.add(followUp(event, jobs.get(uid).ref(), now, new JobWithdrawn("deleted; its quota is released once it has stopped on its member")));
            return;
        }
        out.addAll(toEvents(release(uid, now), event, now));
    }

    /**
     * A job with its effective policy: bypasses quota, or enters its queue. Only a queued job keeps its
     * manifest, so {@code manifest} is asked for only then.
     */
    private List<MusterEvent> place(JobRef ref, PyTorchJob job, Supplier<JobManifest> manifest, ResourceList demand, int priority,
                                    PropagationPolicy policy, MusterEvent cause, Instant now) {
        if (!policy.getSpec().queued()) {
            forget(ref.uid());
            return List.of(followUp(cause, ref, now, new JobAdmitted(job, policy, null, demand)));
        }
        jobs.put(ref.uid(), new TrackedJob(ref, manifest.get(), policy, demand, null, priority));
        QuotaJob quotaJob = new QuotaJob(ref.uid(), ref.namespace(), ref.name(), demand, priority, cause.time(), ++sequence);
        return toEvents(quota.submit(quotaJob, now), cause, now);
    }

    private List<QuotaDecision> release(String uid, Instant now) {
        if (!jobs.containsKey(uid)) {
            return List.of();
        }
        forget(uid);
        return quota.release(uid, now);
    }

    private void forget(String uid) {
        if (jobs.remove(uid) != null) {
            pendingState.put(QueueState.JOBS.key(uid), null);
        }
        if (recordedBindings.remove(uid)) {
            pendingState.put(QueueState.BOUND.key(uid), null);
        }
    }

    /** A policy accepted: jobs that matched no policy so far may be Muster's now. */
    private List<QuotaDecision> applyPolicy(PropagationPolicy policy, MusterEvent cause, Instant now, List<MusterEvent> out) {
        if (!configuration.applyPolicy(policy, cause, now, out)) {
            return List.of();
        }
        for (TrackedJob waiting : List.copyOf(jobs.values())) {
            if (waiting.policy() == null) {
                PyTorchJob job = waiting.job().job();
                configuration.policyOf(job).ifPresent(matched -> out.addAll(place(waiting.ref(), job, waiting::job, waiting.demand(),
                        waiting.priority(), matched, cause, now)));
            }
        }
        return List.of();
    }

    // --- decisions to events and state ------------------------------------------------------------------------

    private List<MusterEvent> toEvents(List<QuotaDecision> decisions, MusterEvent cause, Instant now) {
        return decisionEvents.of(decisions, quota, cause, now);
    }

    private static JobEvent followUp(MusterEvent cause, JobRef job, Instant now, JobEventData data) {
        return DecisionEvents.followUp(cause, job, now, data);
    }

    /** Persists the standing of every job whose standing the quota core changed, and of jobs that left. */
    private void recordChanges() {
        for (String uid : quota.drainChanges()) {
            TrackedJob tracked = jobs.get(uid);
            if (tracked == null) {
                pendingState.put(QueueState.JOBS.key(uid), null);
            } else {
                TrackedJob current = tracked.withStanding(quota.standing(uid).orElse(null));
                jobs.put(uid, current);
                pendingState.put(QueueState.JOBS.key(uid), QueueState.encode(current));
            }
        }
    }

}
