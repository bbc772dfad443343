package dev.muster.queue.core.quota;

import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * What quota holds: the tree in force, the admitted jobs and what they use at each node, the waiting jobs in their
 * leaves' queues, and the journal of whose standing changed. Every write goes through it, so the journal knows
 * exactly which standings to persist, and the queues an evaluation may pass over ({@link Settled}) are forgotten
 * as soon as their jobs change.
 */
final class QuotaLedger {

    /** Within a queue: higher priority first, then earlier submission, then earlier arrival. */
    static final Comparator<QuotaJob> QUEUE_ORDER = Comparator.comparingInt(QuotaJob::priority).reversed()
            .thenComparing(QuotaJob::submittedAt)
            .thenComparingLong(QuotaJob::sequence);
    /** The queue order made total, so that a sorted set never takes two jobs for one. */
    private static final Comparator<QuotaJob> QUEUE_SET_ORDER = QUEUE_ORDER.thenComparing(QuotaJob::uid);
    /** The key of {@link #queues} for the jobs bound to no leaf; no node name is empty. */
    static final String UNBOUND = "";

    private QuotaTree tree;
    private final Map<String, ResourceList> used = new HashMap<>();
    /** See {@link #reclaimInputs}. */
    private long reclaimInputs;
    private final Map<String, Admission> admitted = new LinkedHashMap<>();
    private final Map<String, Wait> waiting = new LinkedHashMap<>();
    /**
     * The waiting jobs of each leaf in queue order, each with its wait, kept as they come and go so that an evaluation
     * walks the queues without sorting them or looking each job's wait up; the jobs bound to no leaf under the key "".
     */
    private final Map<String, NavigableMap<QuotaJob, Wait>> queues = new HashMap<>();
    /** The waiting jobs that reclaim capacity and wait for their victims to stop, by UID: few, and every pass holds for them. */
    private final Set<String> reclaimers = new LinkedHashSet<>();
    /** The admitted jobs by leaf, in {@link Reclaim#VICTIM_ORDER}: a reclaim takes the first few of the borrowing leaves'. */
    private final Map<String, NavigableSet<Admission>> admittedByLeaf = new HashMap<>();
    /** The admitted jobs being preempted, by UID. */
    private final Set<String> preempting = new LinkedHashSet<>();
    private final Set<String> changed = new LinkedHashSet<>();
    /** Whether this ledger is an estimate's copy, which decides admissions only: it keeps no journal (nobody persists its standings). */
    private final boolean admissionsOnly;
    /** The queues an evaluation may pass over, by leaf. */
    private final Map<String, Settled> settled = new HashMap<>();
    /** What each queue's waiting jobs ask, by the key of {@link #queues}: what tells a pass when no job left in it can be admitted. */
    private final Map<String, QueueDemands> demandsWaiting = new HashMap<>();
    /** One instance of each demand jobs have come with (up to {@link #DEMANDS_SHARED}), see {@link #withSharedDemand}. */
    private final Map<ResourceList, ResourceList> demands = new HashMap<>();
    /** The charge of each shared demand, by the demand's instance. */
    private final Map<ResourceList, ResourceList> charges = new java.util.IdentityHashMap<>();
    private static final int DEMANDS_SHARED = 10_000;

    QuotaLedger(QuotaTree tree) {
        this(tree, false);
    }

    /** @param admissionsOnly true for an estimate's copy: {@link #drainChanges} then says none */
    QuotaLedger(QuotaTree tree, boolean admissionsOnly) {
        this.tree = tree;
        this.admissionsOnly = admissionsOnly;
    }

    /**
     * The job with the instance of its demand that jobs of the same demand share: an evaluation reuses its verdicts per
     * leaf and demand, and under overload looks them up for thousands of jobs, which then compare by identity. Past
     * {@value #DEMANDS_SHARED} distinct demands a new one is kept as it came (equal all the same, compared entry by entry).
     */
    QuotaJob withSharedDemand(QuotaJob job) {
        ResourceList shared = demands.get(job.demand());
        if (shared == null) {
            if (demands.size() < DEMANDS_SHARED) {
                demands.put(job.demand(), job.demand());
                charges.put(job.demand(), job.charge());
            }
            return job;
        }
        return shared == job.demand() ? job
                : new QuotaJob(job.uid(), job.namespace(), job.name(), shared, job.priority(), job.submittedAt(), job.sequence());
    }

    /** {@link QuotaJob#charge()}, worked out once per shared demand: an evaluation under overload asks it for every waiting job. */
    ResourceList chargeOf(QuotaJob job) {
        ResourceList charge = charges.get(job.demand());
        return charge != null ? charge : job.charge();
    }

    /** The tree in force, or null before one is applied. */
    QuotaTree tree() {
        return tree;
    }

    /** Puts a new tree (or none) in force: usage is charged again under it and every waiting job finds its leaf again. */
    void replaceTree(QuotaTree newTree) {
        reclaimInputs++;
        tree = newTree;
        used.clear();
        if (newTree != null) {
            admitted.values().forEach(admission -> charge(admission.job(), admission.leaf()));
        }
        for (Wait wait : List.copyOf(waiting.values())) {
            putWaiting(wait.job().uid(), wait.inLeaf(leafOf(wait.job())));
        }
    }

    /**
     * Counts the changes of what a reclaim's search for victims reads: the tree, usage, the admitted jobs (and which are
     * being stopped) and the reclaimers waiting for victims. While it stays, a job that found no victims finds none again.
     */
    long reclaimInputs() {
        return reclaimInputs;
    }

    /** What each node and its subtree use now; every change of a node's usage makes a new list. */
    Map<String, ResourceList> used() {
        return used;
    }

    ResourceList usage(String node) {
        return used.getOrDefault(node, ResourceList.empty());
    }

    Admission admission(String uid) {
        return admitted.get(uid);
    }

    Collection<Admission> admissions() {
        return Collections.unmodifiableCollection(admitted.values());
    }

    Wait wait(String uid) {
        return waiting.get(uid);
    }

    Collection<Wait> waits() {
        return Collections.unmodifiableCollection(waiting.values());
    }

    /** The waiting jobs that reclaim capacity, waiting for their victims to stop. */
    List<Wait> reclaimers() {
        return reclaimers.stream().map(waiting::get).toList();
    }

    /** The waiting jobs of each leaf in queue order with their waits, by leaf name, and those bound to no leaf under {@link #UNBOUND}. */
    Map<String, NavigableMap<QuotaJob, Wait>> queues() {
        return Collections.unmodifiableMap(queues);
    }

    /** The jobs whose namespace no leaf binds, in queue order. */
    List<QuotaJob> unbound() {
        return List.copyOf(queues.getOrDefault(UNBOUND, Collections.emptyNavigableMap()).keySet());
    }

    /** The jobs waiting in a leaf's queue, head first. */
    List<QuotaJob> queue(String leaf) {
        return List.copyOf(queues.getOrDefault(leaf, Collections.emptyNavigableMap()).keySet());
    }

    void putWaiting(String uid, Wait wait) {
        Wait previous = waiting.put(uid, wait);
        if (!wait.equals(previous)) {
            journal(uid);
        }
        if (previous != null && Objects.equals(previous.leaf(), wait.leaf()) && previous.job().demand() == wait.job().demand()) {
            demandsWaiting.get(queueKey(wait)).retold(previous, wait);
        } else {
            if (previous != null) {
                forgetDemand(previous);
            }
            demandsWaiting.computeIfAbsent(queueKey(wait), key -> new QueueDemands()).add(wait);
        }
        if (wait.reclaiming().isEmpty()) {
            if (reclaimers.remove(uid)) {
                reclaimInputs++;
            }
        } else {
            reclaimers.add(uid);
            reclaimInputs++;
        }
        if (previous == null || !Objects.equals(previous.leaf(), wait.leaf())) {
            if (previous != null) {
                leaveQueue(previous);
            }
            queues.computeIfAbsent(queueKey(wait), key -> new TreeMap<>(QUEUE_SET_ORDER)).put(wait.job(), wait);
            settled.remove(queueKey(wait));
        } else {
            queues.get(queueKey(wait)).put(wait.job(), wait);
        }
    }

    Wait removeWaiting(String uid) {
        Wait removed = waiting.remove(uid);
        if (reclaimers.remove(uid)) {
            reclaimInputs++;
        }
        if (removed != null) {
            journal(uid);
            leaveQueue(removed);
            forgetDemand(removed);
        }
        return removed;
    }

    private void leaveQueue(Wait wait) {
        settled.remove(queueKey(wait));
        NavigableMap<QuotaJob, Wait> queue = queues.get(queueKey(wait));
        queue.remove(wait.job());
        if (queue.isEmpty()) {
            queues.remove(queueKey(wait));
        }
    }

    private void forgetDemand(Wait wait) {
        if (demandsWaiting.get(queueKey(wait)).remove(wait)) {
            demandsWaiting.remove(queueKey(wait));
        }
    }

    private static String queueKey(Wait wait) {
        return wait.leaf() == null ? UNBOUND : wait.leaf();
    }

    /** Records the admission; charging it is {@link #charge}'s. */
    void putAdmitted(String uid, Admission admission) {
        Admission previous = admitted.put(uid, admission);
        if (previous != null) {
            leaveLeaf(previous);
        }
        admittedByLeaf.computeIfAbsent(admission.leaf(), leaf -> new TreeSet<>(Reclaim.VICTIM_ORDER)).add(admission);
        reclaimInputs++;
        if (admission.preempting()) {
            preempting.add(uid);
        } else {
            preempting.remove(uid);
        }
        journal(uid);
    }

    Admission removeAdmitted(String uid) {
        Admission removed = admitted.remove(uid);
        if (removed != null) {
            leaveLeaf(removed);
            reclaimInputs++;
            preempting.remove(uid);
            journal(uid);
        }
        return removed;
    }

    private void leaveLeaf(Admission admission) {
        NavigableSet<Admission> ofLeaf = admittedByLeaf.get(admission.leaf());
        ofLeaf.remove(admission);
        if (ofLeaf.isEmpty()) {
            admittedByLeaf.remove(admission.leaf());
        }
    }

    /** The admitted jobs of each leaf, in {@link Reclaim#VICTIM_ORDER}, by leaf name. */
    Map<String, NavigableSet<Admission>> admittedByLeaf() {
        return Collections.unmodifiableMap(admittedByLeaf);
    }

    /** The admitted jobs being preempted, in the order they were first preempted: few beside the admitted, which every reclaim weighs. */
    List<Admission> beingPreempted() {
        return preempting.stream().map(admitted::get).toList();
    }

    /** The leaf the job's namespace is bound to under the tree in force, or null. */
    String leafOf(QuotaJob job) {
        return tree == null ? null : tree.leafFor(job.namespace()).map(Node::name).orElse(null);
    }

    void charge(QuotaJob job, String leaf) {
        reclaimInputs++;
        ResourceList charge = chargeOf(job);
        for (Node node : tree.pathToRoot(tree.node(leaf).orElseThrow())) {
            used.merge(node.name(), charge, ResourceList::plus);
        }
    }

    void uncharge(QuotaJob job, String leaf) {
        reclaimInputs++;
        uncharge(tree, job, leaf, used);
    }

    /** Takes the job's charge off its leaf and every ancestor in this usage, real or simulated. */
    static void uncharge(QuotaTree tree, QuotaJob job, String leaf, Map<String, ResourceList> usage) {
        ResourceList charge = job.charge();
        for (Node node : tree.pathToRoot(tree.node(leaf).orElseThrow())) {
            usage.merge(node.name(), charge, ResourceList::minus);
        }
    }

    /** What the jobs waiting in the leaf's queue ask; empty when none waits. */
    QueueDemands demandsWaiting(String leaf) {
        return demandsWaiting.getOrDefault(leaf, QueueDemands.NONE);
    }

    /** The charge of jobs of this demand (the instance jobs share, see {@link #withSharedDemand}). */
    ResourceList chargeOf(ResourceList demand) {
        ResourceList charge = charges.get(demand);
        return charge != null ? charge : demand.plus(QuotaJob.ONE_JOB);
    }

    Settled settled(String leaf) {
        return settled.get(leaf);
    }

    void settle(String leaf, Settled queue) {
        settled.put(leaf, queue);
    }

    void unsettle(String leaf) {
        settled.remove(leaf);
    }

    private void journal(String uid) {
        if (!admissionsOnly) {
            changed.add(uid);
        }
    }

    /** The jobs whose standing changed since the last call. */
    Set<String> drainChanges() {
        Set<String> drained = Set.copyOf(changed);
        changed.clear();
        return drained;
    }
}
