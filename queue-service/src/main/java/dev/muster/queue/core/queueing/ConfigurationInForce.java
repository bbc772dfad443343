package dev.muster.queue.core.queueing;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import dev.muster.model.event.ConfigAccepted;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigEventData;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PolicyDeleted;
import dev.muster.model.event.PriorityClassApplied;
import dev.muster.model.event.PriorityClassDeleted;
import dev.muster.model.event.QuotaTreeDeleted;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.policy.PropagationPolicyValidator;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.quota.QueueNames;
import dev.muster.model.validation.InvalidObjectException;
import dev.muster.model.validation.Violation;
import dev.muster.queue.core.policy.PolicyResolver;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaDecision;
import dev.muster.queue.core.quota.QuotaTree;
import dev.muster.queue.core.quota.TreeChangeRejectedException;

/**
 * The configuration the queue works by: the priority classes, the propagation policies and the quota tree in force, and
 * the last refused change of each object that is still refused. A change is validated here, then accepted or refused
 * with every reason (a {@link ConfigEvent} either way); on a refusal what was in force stays in force. Each change's
 * state record goes to the queue's pending state records, so that a restarted queue works by the same configuration.
 */
final class ConfigurationInForce {

    /** The classes every Kubernetes cluster has, which no one creates: known before any PriorityClass event. */
    private static final Map<String, PriorityClassApplied> BUILT_IN_PRIORITY_CLASSES = Map.of(
            "system-cluster-critical", new PriorityClassApplied("system-cluster-critical", 2_000_000_000, false),
            "system-node-critical", new PriorityClassApplied("system-node-critical", 2_000_001_000, false));

    private final Map<String, PriorityClassApplied> priorityClasses = new TreeMap<>(BUILT_IN_PRIORITY_CLASSES);
    private final PolicyResolver policies = new PolicyResolver();
    private final Map<String, QueueState.ConfigRefusal> refusals = new LinkedHashMap<>();
    /** The queue's state records still to write, shared with it. */
    private final Map<String, byte[]> pendingState;
    private ElasticQuotaTree appliedTree;

    ConfigurationInForce(Map<String, byte[]> pendingState) {
        this.pendingState = pendingState;
    }

    /** Takes a state record of configuration back; false for a record of anything else. */
    boolean restore(Entry record) {
        if (QueueState.TREE.equals(record.key())) {
            appliedTree = QueueState.tree(record.value());
        } else if (QueueState.POLICIES.holds(record.key())) {
            policies.apply(QueueState.POLICIES.read(record.value()));
        } else if (QueueState.PRIORITY_CLASSES.holds(record.key())) {
            PriorityClassApplied priorityClass = QueueState.PRIORITY_CLASSES.read(record.value());
            priorityClasses.put(priorityClass.name(), priorityClass);
        } else if (QueueState.REFUSALS.holds(record.key())) {
            QueueState.ConfigRefusal refusal = QueueState.REFUSALS.read(record.value());
            refusals.put(refusal.object().key(), refusal);
        } else {
            return false;
        }
        return true;
    }

    /** The tree in force, if any: the last one accepted. */
    Optional<ElasticQuotaTree> treeInForce() {
        return Optional.ofNullable(appliedTree);
    }

    /** The last refused change of each configuration object that is still refused. */
    Collection<QueueState.ConfigRefusal> refusals() {
        return List.copyOf(refusals.values());
    }

    /** The policy the job matches, if any: the job is Muster's only then. */
    Optional<PropagationPolicy> policyOf(PyTorchJob job) {
        return policies.resolve(job);
    }

    /**
     * The job's priority, resolved once at submission as Kubernetes resolves a pod's: the value the fleet API resolved when
     * the job was created there, else that of the class it names, else that of the global default class, else 0.
     *
     * @throws RejectedEventException when it names a class that does not exist
     */
    int priorityOf(JobEvent event, JobSubmitted submitted) {
        if (submitted.priority() != null && FleetJobs.INGRESS_SOURCE.equals(event.source())) {
            return submitted.priority();
        }
        Optional<String> named = submitted.job().getSpec().priorityClassName();
        if (named.isPresent()) {
            PriorityClassApplied priorityClass = priorityClasses.get(named.get());
            if (priorityClass == null) {
                throw new RejectedEventException(event.job(), List.of("spec.runPolicy.schedulingPolicy.priorityClass: no PriorityClass with name "
                        + named.get() + " was found"));
            }
            return priorityClass.value();
        }
        return priorityClasses.values().stream().filter(PriorityClassApplied::globalDefault).mapToInt(PriorityClassApplied::value).max().orElse(0);
    }

    /** Jobs submitted from now on that name the class, or name none when it is the global default, take its value. */
    void applyPriorityClass(PriorityClassApplied priorityClass) {
        if (BUILT_IN_PRIORITY_CLASSES.containsKey(priorityClass.name())) {
            return;
        }
        priorityClasses.put(priorityClass.name(), priorityClass);
        pendingState.put(QueueState.PRIORITY_CLASSES.key(priorityClass.name()), QueueState.encode(priorityClass));
    }

    void deletePriorityClass(PriorityClassDeleted deleted) {
        if (!BUILT_IN_PRIORITY_CLASSES.containsKey(deleted.name()) && priorityClasses.remove(deleted.name()) != null) {
            pendingState.put(QueueState.PRIORITY_CLASSES.key(deleted.name()), null);
        }
    }

    /** Accepts or refuses the policy; true when it is in force now. */
    boolean applyPolicy(PropagationPolicy policy, MusterEvent cause, Instant now, List<MusterEvent> out) {
        ConfigRef object = new ConfigRef(PropagationPolicy.KIND, policy.getMetadata().getNamespace(), policy.getMetadata().getName());
        List<Violation> violations = PropagationPolicyValidator.validate(policy);
        if (!violations.isEmpty()) {
            out.add(refuse(object, violations.stream().map(Violation::toString).toList(), now, cause));
            return false;
        }
        policies.apply(policy);
        pendingState.put(QueueState.POLICIES.key(policy.getMetadata().getNamespace() + "/" + policy.getMetadata().getName()), QueueState.encode(policy));
        out.add(accept(object, false, Map.of(), now, cause));
        return true;
    }

    void deletePolicy(PolicyDeleted deleted, MusterEvent cause, Instant now, List<MusterEvent> out) {
        policies.delete(deleted.namespace(), deleted.name());
        pendingState.put(QueueState.POLICIES.key(deleted.namespace() + "/" + deleted.name()), null);
        out.add(accept(new ConfigRef(PropagationPolicy.KIND, deleted.namespace(), deleted.name()), true, Map.of(), now, cause));
    }

    /** Accepts the tree into the quota core, or refuses it; the quota core's decisions on its waiting jobs then. */
    List<QuotaDecision> applyTree(ElasticQuotaTree tree, QuotaAdmission quota, MusterEvent cause, Instant now, List<MusterEvent> out) {
        ConfigRef object = treeRef(tree);
        if (appliedTree != null && !treeRef(appliedTree).equals(object)) {
            out.add(refuse(object, List.of("only one ElasticQuotaTree is supported and " + treeRef(appliedTree) + " is in force"), now, cause));
            return List.of();
        }
        QuotaTree parsed;
        try {
            parsed = QuotaTree.of(tree);
        } catch (InvalidObjectException e) {
            out.add(refuse(object, e.violations().stream().map(Violation::toString).toList(), now, cause));
            return List.of();
        }
        try {
            List<QuotaDecision> decisions = quota.replaceTree(parsed, now);
            appliedTree = tree;
            pendingState.put(QueueState.TREE, QueueState.encode(tree));
            out.add(accept(object, false, QueueNames.ofTree(tree.getSpec().root()), now, cause));
            return decisions;
        } catch (TreeChangeRejectedException e) {
            out.add(refuse(object, List.of(e.getMessage()), now, cause));
            return List.of();
        }
    }

    List<QuotaDecision> deleteTree(QuotaTreeDeleted deleted, QuotaAdmission quota, MusterEvent cause, Instant now, List<MusterEvent> out) {
        ConfigRef object = new ConfigRef(ElasticQuotaTree.KIND, deleted.namespace(), deleted.name());
        if (appliedTree == null || !treeRef(appliedTree).equals(object)) {
            // Not the tree in force (a refused second tree, say): its refusal goes with it.
            if (refusals.remove(object.key()) != null) {
                pendingState.put(QueueState.REFUSALS.key(object.key()), null);
            }
            return List.of();
        }
        try {
            List<QuotaDecision> decisions = quota.removeTree(now);
            appliedTree = null;
            pendingState.put(QueueState.TREE, null);
            out.add(accept(object, true, Map.of(), now, cause));
            return decisions;
        } catch (TreeChangeRejectedException e) {
            out.add(refuse(object, List.of(e.getMessage()), now, cause));
            return List.of();
        }
    }

    /** The change is in force: any earlier refusal of the object is over. */
    private ConfigEvent accept(ConfigRef object, boolean deleted, Map<String, String> queues, Instant now, MusterEvent cause) {
        if (refusals.remove(object.key()) != null) {
            pendingState.put(QueueState.REFUSALS.key(object.key()), null);
        }
        return followUp(cause, now, new ConfigAccepted(object, deleted, queues));
    }

    /**
     * The change is refused with its reasons and recorded for the views; what was in force stays in force. A null cause
     * is a record that could not even be read.
     */
    ConfigEvent refuse(ConfigRef object, List<String> reasons, Instant now, MusterEvent cause) {
        QueueState.ConfigRefusal refusal = new QueueState.ConfigRefusal(object, reasons, now);
        refusals.put(object.key(), refusal);
        pendingState.put(QueueState.REFUSALS.key(object.key()), QueueState.encode(refusal));
        return followUp(cause, now, new ConfigRejected(object, reasons, inForce(object)));
    }

    /** What stays in force when a change to the object is refused. */
    private String inForce(ConfigRef object) {
        if (ElasticQuotaTree.KIND.equals(object.kind())) {
            return appliedTree == null ? "no ElasticQuotaTree (every queued job waits with " + QuotaAdmission.NO_QUOTA_FOR_NAMESPACE + ")"
                    : treeRef(appliedTree) + " as last accepted (resourceVersion " + appliedTree.getMetadata().getResourceVersion() + ")";
        }
        return policies.policy(object.namespace(), object.name())
                .map(policy -> object + " as last accepted (resourceVersion " + policy.getMetadata().getResourceVersion() + ")")
                .orElse("no version of " + object + " (jobs it would select are matched against the other policies)");
    }

    private static ConfigRef treeRef(ElasticQuotaTree tree) {
        return new ConfigRef(ElasticQuotaTree.KIND, tree.getMetadata().getNamespace(), tree.getMetadata().getName());
    }

    /** An event about a configuration object caused by another event (null for a record that could not be read). */
    private static ConfigEvent followUp(MusterEvent cause, Instant now, ConfigEventData data) {
        String seed = (cause == null ? "unreadable|" + now : cause.id()) + "|" + data.key() + "|" + EventType.of(data).cloudEventType();
        return new ConfigEvent(java.util.UUID.nameUUIDFromBytes(seed.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString(),
                FleetQueue.SOURCE, now, data);
    }
}
