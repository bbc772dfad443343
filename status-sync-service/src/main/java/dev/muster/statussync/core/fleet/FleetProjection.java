package dev.muster.statussync.core.fleet;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.muster.model.event.ConfigAccepted;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobGivenBack;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.statussync.core.fleet.FleetWrite.ConfigOutcome;
import dev.muster.statussync.core.fleet.FleetWrite.CreateJob;
import dev.muster.statussync.core.fleet.FleetWrite.DeleteQueueUnit;
import dev.muster.statussync.core.fleet.FleetWrite.PutQueueUnit;
import dev.muster.statussync.core.fleet.FleetWrite.PutQueues;
import dev.muster.statussync.core.fleet.FleetWrite.RecordEvent;
import dev.muster.statussync.core.fleet.FleetWrite.SetCondition;

/**
 * Projects the job and configuration events of every service onto the fleet API, as a user of the vendor's
 * product expects to find them: a fleet object for each job submitted on the Kafka path, a Kubernetes Event on
 * the job for each lifecycle step, the job's
 * {@code Queuing} state and its reason while it waits (in a queue or for a cluster to fit it), a Kube Queue
 * {@code QueueUnit} per queued job, a {@code Queue} per quota node of the tree in force, and on each policy and tree
 * whether its last change was accepted or refused and why. Once a job is bound, its status is its
 * member copy's (see {@code JobMirror}), until it fails over or is given back. Plain Java.
 */
public final class FleetProjection {

    /** The state of a job waiting to run anywhere. */
    public static final String QUEUING = "Queuing";
    private static final String RUNNING = "Running";
    /** A member's states on a job's way to its end, shown by its status rather than told as Events. */
    private static final Set<String> PROGRESS = Set.of("Pending", "Created", RUNNING, "Succeeded");
    static final String COMPONENT = "muster";
    /** The seed shows binding events as coming from the scheduler. */
    static final String SCHEDULER = "default-scheduler";

    private final Map<String, String> queueOfNode = new HashMap<>();
    /**
     * Each queued job's unit as last written (its phase null while only its queue is known). A job submitted on the
     * Kafka path gets its fleet object from its submission, which may be read after the queue's word on it: its unit
     * is written again once the object is there.
     */
    private final Map<String, PutQueueUnit> units = new HashMap<>();
    /**
     * Bound jobs, each with its binding's time. The queue's word and placement's come on different topics, read in any
     * order (a backlog after a restart): a queueing, admission or preemption older than the binding shown is of an
     * earlier admission of the job, history to tell as an Event, not a state to show over the binding.
     */
    private final Map<String, Instant> bound = new HashMap<>();
    private final Map<String, String> lastQueued = new HashMap<>();
    /** Jobs preempted and not stopped yet: their stop is told on them (a deleted job's is not, the job being gone). */
    private final Set<String> stopping = new HashSet<>();
    /**
     * The jobs whose member said they run, with what their unit says of it. Their queueing, admission and binding
     * are on other topics and may be read after (a backlog, a member quick to start the pods): they must not set the
     * unit back to Enqueued or Dequeued. Only a preemption, a failover or a give-back takes a job out.
     */
    private final Map<String, String> running = new HashMap<>();
    /**
     * Jobs that ran to their end, until they are deleted: the queue may preempt a job in the moment it ends, before it
     * has read the end, and the job must go on showing its end, not a wait it will never leave.
     */
    private final Set<String> finished = new HashSet<>();

    /** The fleet writes one consumed event leads to. */
    public List<FleetWrite> handle(MusterEvent event) {
        if (event instanceof ConfigEvent config) {
            return configure(config);
        }
        if (!(event instanceof JobEvent jobEvent)) {
            return List.of();
        }
        JobRef job = jobEvent.job();
        String uid = job.uid();
        List<FleetWrite> writes = new ArrayList<>();
        boolean beforeTheBinding = bound.containsKey(uid) && jobEvent.time() != null && jobEvent.time().isBefore(bound.get(uid));
        if (jobEvent.data() instanceof JobSubmitted submitted) {
            if (!FleetJobs.INGRESS_SOURCE.equals(jobEvent.source()) && submitted.job() != null) {
                writes.add(new CreateJob(job, FleetJobs.forKafkaSubmission(submitted.job(), uid)));
                Optional.ofNullable(units.get(uid)).filter(written -> written.phase() != null).ifPresent(writes::add);
            } else if (submitted.job() != null && submitted.job().getMetadata() != null && uid.equals(submitted.job().getMetadata().getUid())) {
                writes.add(new FleetWrite.ObjectSeen(job, submitted.job()));
            }
        } else if (finished.contains(uid) && (jobEvent.data() instanceof JobQueued || jobEvent.data() instanceof JobAdmitted)) {
            // The queue's word on an admission the end overtook (a failover's, whose left-behind copy ran to its end).
            writes.add(event(jobEvent, "Normal", jobEvent.data() instanceof JobQueued ? "Queued" : "Admitted",
                    jobEvent.data().summary() + "; the job had ended already"));
        } else if (jobEvent.data() instanceof JobQueued queued && beforeTheBinding) {
            lastQueued.put(uid, toldAs(queued));
            writes.add(event(jobEvent, "Normal", "Queued", queued.summary().substring("queued ".length())));
            if (queued.queue() != null && learn(job, queued.queue(), queued.demand(), queued.priority(), queued.priorityClass())) {
                // The unit's first word: where the job is now, not where this old wait was.
                (running.containsKey(uid) ? unit(jobEvent, RUNNING, running.get(uid)) : unit(jobEvent, "Dequeued", "bound to a member cluster"))
                        .ifPresent(writes::add);
            }
        } else if (jobEvent.data() instanceof JobQueued queued) {
            String told = toldAs(queued);
            if (!told.equals(lastQueued.put(uid, told))) {
                writes.add(event(jobEvent, "Normal", "Queued", queued.summary().substring("queued ".length())));
            }
            waiting(jobEvent, queued.reason(), withEstimate(queued.message(), queued.estimatedStart())).ifPresent(writes::add);
            if (queued.queue() != null) {
                writes.add(written(running.containsKey(uid)
                        ? new PutQueueUnit(job, queued.queue(), queued.demand(), queued.priority(), queued.priorityClass(), RUNNING, running.get(uid),
                        jobEvent.time(), null)
                        : new PutQueueUnit(job, queued.queue(), queued.demand(), queued.priority(), queued.priorityClass(), "Enqueued",
                        queued.message() + (queued.position() == null ? "" : " (position " + queued.position() + ")"), jobEvent.time(),
                        queued.estimatedStart())));
            }
        } else if (jobEvent.data() instanceof JobAdmitted admitted) {
            // Told only after a wait that was told: the admission of a job admitted at once is in its binding's Event.
            if (lastQueued.remove(uid) != null) {
                writes.add(event(jobEvent, "Normal", "Admitted", admitted.summary()));
            }
            waiting(jobEvent, "Placing", admitted.summary() + "; choosing a member cluster for the whole gang").ifPresent(writes::add);
            String queue = admitted.queue() != null ? admitted.queue() : admitted.quotaLeaf() == null ? null : queueOfNode.get(admitted.quotaLeaf());
            if (queue != null) {
                learn(job, queue, admitted.demand(), admitted.priority(), admitted.job() == null || admitted.job().getSpec() == null ? null
                        : admitted.job().getSpec().priorityClassName().orElse(null));
            }
            (running.containsKey(uid) ? unit(jobEvent, RUNNING, running.get(uid)) : unit(jobEvent, "Dequeued", admitted.summary()))
                    .ifPresent(writes::add);
        } else if (jobEvent.data() instanceof JobRejected rejected) {
            writes.add(event(jobEvent, "Warning", "Rejected", String.join("; ", rejected.reasons())));
            writes.add(new SetCondition(job, "Failed", "Rejected", String.join("; ", rejected.reasons()), jobEvent.time()));
        } else if (jobEvent.data() instanceof JobPreempted preempted && finished.contains(uid)) {
            writes.add(event(jobEvent, "Normal", "Preempted", preempted.summary() + "; it had finished already, so nothing was stopped"));
        } else if (jobEvent.data() instanceof JobPreempted preempted && beforeTheBinding) {
            writes.add(event(jobEvent, "Normal", "Preempted", preempted.summary() + "; an earlier admission was stopped, the job runs on under "
                    + "a later one"));
        } else if (jobEvent.data() instanceof JobPreempted preempted) {
            // Told on both jobs, each naming the other; the victim shows Queuing at once, as it no longer runs for the fleet.
            bound.remove(uid);
            running.remove(uid);
            stopping.add(uid);
            writes.add(event(jobEvent, "Warning", "Preempted", preempted.summary()));
            writes.add(new SetCondition(job, QUEUING, "Preempted", preempted.summary() + "; being stopped on its member", jobEvent.time()));
            unit(jobEvent, "Enqueued", preempted.summary() + "; being stopped on its member").ifPresent(writes::add);
            if (preempted.byUid() != null && preempted.by().contains("/")) {
                String[] reclaimer = preempted.by().split("/", 2);
                writes.add(new RecordEvent(new JobRef(reclaimer[0], reclaimer[1], preempted.byUid()), jobEvent.id(), "Normal", "Reclaiming",
                        "preempted " + job.subject() + " to take back borrowed capacity; admitted once it has stopped on its member",
                        COMPONENT, jobEvent.time()));
            }
        } else if (jobEvent.data() instanceof JobEvicted evicted && stopping.remove(uid)) {
            writes.add(event(jobEvent, "Normal", "Stopped", evicted.message() + "; it waits in its queue again"));
        } else if (jobEvent.data() instanceof PlacementFailed failed) {
            writes.add(event(jobEvent, "Warning", "PlacementFailed", failed.message() + reasons(failed.clusterReasons())));
            waiting(jobEvent, "NoClusterFits", failed.message() + reasons(failed.clusterReasons())).ifPresent(writes::add);
        } else if (jobEvent.data() instanceof JobBound jobBound) {
            if (!finished.contains(uid)) {
                // A binding read after the end (the job ended before placement read that it was created) is told, not tracked.
                bound.put(uid, jobEvent.time() == null ? Instant.MIN : jobEvent.time());
            }
            writes.add(new RecordEvent(job, jobEvent.id(), "Normal", "ScheduleBindingSucceed", jobBound.message(), SCHEDULER, jobEvent.time()));
            if (!running.containsKey(uid)) {
                unit(jobEvent, "Dequeued", "bound to member cluster " + jobBound.cluster()).ifPresent(writes::add);
            }
        } else if (jobEvent.data() instanceof JobGivenBack givenBack) {
            bound.remove(uid);
            running.remove(uid);
            writes.add(event(jobEvent, "Warning", "GivenBack", givenBack.reason()));
            unit(jobEvent, "TimeoutBackoff", givenBack.reason()).ifPresent(writes::add);
        } else if (jobEvent.data() instanceof FailoverTriggered failover) {
            bound.remove(uid);
            running.remove(uid);
            writes.add(event(jobEvent, "Warning", "FailoverTriggered", failover.summary()));
            writes.add(new SetCondition(job, QUEUING, "FailingOver", failover.summary() + "; placing the job on another cluster", jobEvent.time()));
        } else if (jobEvent.data() instanceof MemberStatusChanged changed) {
            boolean aside = "Unhealthy".equals(changed.reason()) || "PodRestarted".equals(changed.reason());
            boolean trouble = aside || "Unknown".equals(changed.state()) || "Restarting".equals(changed.state());
            // The way to the end (Pending, Created, Running, Succeeded) is the job's status, conditions and times
            // included: an Event of each step would be a fleet API request per step and job, telling nothing more.
            if (aside || !PROGRESS.contains(changed.state())) {
                writes.add(event(jobEvent, trouble ? "Warning" : "Normal", aside ? changed.reason() : changed.state(),
                        "on " + changed.cluster() + ": " + changed.message()));
            }
            if (RUNNING.equals(changed.state())) {
                running.put(uid, "running on member cluster " + changed.cluster());
                unit(jobEvent, RUNNING, running.get(uid)).ifPresent(writes::add);
            }
        } else if (jobEvent.data() instanceof JobFinished finished) {
            writes.add(event(jobEvent, "Succeeded".equals(finished.outcome()) ? "Normal" : "Warning", "Finished", finished.summary()));
            unit(jobEvent, "Succeeded".equals(finished.outcome()) ? "Succeed" : "Failed", finished.summary()).ifPresent(writes::add);
            forget(uid);
            this.finished.add(uid);
        } else if (jobEvent.data() instanceof JobDeleted) {
            // Also the unit of a job that finished (kept as its record) or was queued before a restart.
            writes.add(new DeleteQueueUnit(job));
            // Deleted through the fleet API, its object is gone already; unless its submission, read again after a restart,
            // wrote it again, in this process or in one before it (the queue finds such an object written after the one it
            // was shown, and deletes the job). Only an object of the Kafka path for this job's events is deleted.
            writes.add(new FleetWrite.DeleteKafkaJob(job));
            forget(uid);
            finished.remove(uid);
        }
        return writes;
    }

    /** What a Queued Event tells: a new one only when it changes (a new position is no news). */
    private static String toldAs(JobQueued queued) {
        return queued.queue() == null ? queued.reason() : queued.queue() + "|" + queued.reason();
    }

    private void forget(String uid) {
        units.remove(uid);
        running.remove(uid);
        stopping.remove(uid);
        bound.remove(uid);
        lastQueued.remove(uid);
    }

    /**
     * What the queue service decided of a change of configuration: the Queues of the tree in force (never of a tree it
     * refused), and the outcome on the policy or tree itself.
     */
    private List<FleetWrite> configure(ConfigEvent config) {
        List<FleetWrite> writes = new ArrayList<>();
        if (config.data() instanceof ConfigAccepted accepted) {
            if (ElasticQuotaTree.KIND.equals(accepted.object().kind())) {
                queueOfNode.clear();
                queueOfNode.putAll(accepted.queues());
                Map<String, String> nodeByQueue = new LinkedHashMap<>();
                accepted.queues().forEach((node, queue) -> nodeByQueue.put(queue, node));
                writes.add(new PutQueues(nodeByQueue, List.copyOf(nodeByQueue.keySet())));
            }
            if (!accepted.deleted()) {
                writes.add(new ConfigOutcome(accepted.object(), config.id(), true, "Accepted", accepted.queues().isEmpty() ? "in force"
                        : "in force, with queues " + String.join(", ", accepted.queues().values()), config.time()));
            }
        } else if (config.data() instanceof ConfigRejected rejected) {
            writes.add(new ConfigOutcome(rejected.object(), config.id(), false, "Refused", "refused: " + String.join("; ", rejected.reasons())
                    + ". In force instead: " + rejected.inForce(), config.time()));
        }
        return writes;
    }

    /**
     * The job's Queuing condition, unless it is bound (its member copy's status is shown then) or ended (the queue's
     * and placement's word may come after the end overtook an admission: a failover's, say, when the copy it left
     * behind ran to its end).
     */
    private Optional<FleetWrite> waiting(JobEvent event, String reason, String message) {
        return bound.containsKey(event.job().uid()) || finished.contains(event.job().uid()) ? Optional.empty()
                : Optional.of(new SetCondition(event.job(), QUEUING, reason, message, event.time()));
    }

    /**
     * The unit moved to a new phase; nothing when it is in that phase already (admitted, then bound: both
     * {@code Dequeued}), as each write is a fleet API request and the job's status and Events tell the rest.
     */
    private Optional<FleetWrite> unit(JobEvent event, String phase, String message) {
        PutQueueUnit unit = units.get(event.job().uid());
        return unit == null || phase.equals(unit.phase()) ? Optional.empty()
                : Optional.of(written(new PutQueueUnit(event.job(), unit.queue(), unit.demand(), unit.priority(), unit.priorityClassName(), phase,
                        message, event.time(), null)));
    }

    private PutQueueUnit written(PutQueueUnit unit) {
        units.put(unit.job().uid(), unit);
        return unit;
    }

    /** What the queue says of a job's unit, its phase kept; whether the unit was not known before. */
    private boolean learn(JobRef job, String queue, ResourceList demand, Integer priority, String priorityClassName) {
        PutQueueUnit known = units.get(job.uid());
        units.put(job.uid(), known == null ? new PutQueueUnit(job, queue, demand, priority, priorityClassName, null, null, null, null)
                : new PutQueueUnit(job, queue, demand, priority, priorityClassName, known.phase(), known.message(), known.time(), known.estimatedStart()));
        return known == null;
    }

    /** A waiting job's message with the queue's estimate of its start, to the minute, when it has one. */
    static String withEstimate(String message, Instant estimatedStart) {
        return estimatedStart == null ? message : message + "; expected to start at about "
                + estimatedStart.truncatedTo(ChronoUnit.MINUTES) + " (the queue's estimate, were nothing new to arrive)";
    }

    private static RecordEvent event(JobEvent event, String type, String reason, String message) {
        return new RecordEvent(event.job(), event.id(), type, reason, message, COMPONENT, event.time());
    }

    private static String reasons(Map<String, String> clusterReasons) {
        if (clusterReasons.isEmpty()) {
            return "";
        }
        StringBuilder text = new StringBuilder(":");
        clusterReasons.forEach((cluster, reason) -> text.append(' ').append(cluster).append(": ").append(reason).append(';'));
        text.setLength(text.length() - 1);
        return text.toString();
    }
}
