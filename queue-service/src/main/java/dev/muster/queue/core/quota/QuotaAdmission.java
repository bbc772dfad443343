package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;

import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaDecision.Preempted;
import dev.muster.queue.core.quota.QuotaDecision.Waiting;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Kube Queue and ElasticQuota semantics over one quota tree: which waiting jobs are admitted, in what
 * order, and why the others wait.
 * <p>
 * A job is admitted at its leaf when, at the leaf and every ancestor, each resource the node's {@code max}
 * names (the job count {@code kube-queue/max-jobs} included) stays within it. Within a queue, higher
 * priority goes first, then earlier submission; a head that does not fit does not block the jobs behind it
 * (best-effort FIFO) unless its queue is strict FIFO. Across queues, jobs that have waited longer than the
 * starvation age go first and hold capacity for themselves, then jobs within their nodes' guaranteed
 * {@code min}, then by priority and submission. When borrowed capacity blocks a job that is within its
 * guarantee, the borrowers' lowest-priority, newest jobs are preempted, just enough of them, if the tree's
 * reclaim policy allows.
 * <p>
 * Not thread-safe: one service thread drives it, one event at a time.
 */
public final class QuotaAdmission {

    public static final String NO_QUOTA_FOR_NAMESPACE = "NoQuotaForNamespace";
    public static final String QUOTA_EXCEEDED = "QuotaExceeded";
    public static final String QUOTA_NEVER_FITS = "QuotaNeverFits";
    public static final String HELD_FOR_STARVING_JOB = "HeldForStarvingJob";
    public static final String BEHIND_STRICT_HEAD = "BehindStrictHead";
    public static final String BACKOFF = "Backoff";

    private static final Comparator<QuotaJob> QUEUE_ORDER = Comparator.comparingInt(QuotaJob::priority).reversed()
            .thenComparing(QuotaJob::submittedAt)
            .thenComparingLong(QuotaJob::sequence);

    private final QuotaSettings settings;
    private QuotaTree tree;
    private final Map<String, ResourceList> used = new HashMap<>();
    private final Map<String, Admission> admitted = new LinkedHashMap<>();
    private final Map<String, Wait> waiting = new LinkedHashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();

    /** @param giveBacks how many times placement gave the job back so far, so each backoff doubles the last */
    private record Admission(QuotaJob job, String leaf, Instant admittedAt, int giveBacks) {
    }

    /**
     * A waiting job and what was last said about it.
     *
     * @param waitingSince when it first did not fit; the starvation guard counts from here
     * @param notBefore    when a job given back may be admitted again
     * @param giveBacks    how many times placement gave it back
     */
    private record Wait(QuotaJob job, String leaf, Instant waitingSince, Instant notBefore, int giveBacks,
                        String reason, String message) {

        Wait reported(String newReason, String newMessage) {
            return new Wait(job, leaf, waitingSince, notBefore, giveBacks, newReason, newMessage);
        }

        Wait since(Instant time) {
            return new Wait(job, leaf, time, notBefore, giveBacks, reason, message);
        }
    }

    /** A limit a job would break, for the waiting reason. */
    private record Shortfall(Node node, String resource, BigDecimal used, BigDecimal held, BigDecimal max, BigDecimal need,
                             Set<String> holders) {

        boolean causedByHeldCapacity() {
            return held.signum() > 0 && used.add(need).compareTo(max) <= 0;
        }

        String message() {
            StringBuilder text = new StringBuilder(node.pathText()).append(": ").append(resource).append(' ')
                    .append(Quantities.format(resource, used)).append('/').append(Quantities.format(resource, max)).append(" in use");
            if (held.signum() > 0) {
                text.append(" and ").append(Quantities.format(resource, held)).append(" held for starving ")
                        .append(String.join(", ", holders));
            }
            if (!ResourceNames.MAX_JOBS.equals(resource)) {
                text.append(", job needs ").append(Quantities.format(resource, need));
            }
            return text.toString();
        }
    }

    /** @param tree the quota tree, or null before one is applied: every job then waits with {@code NoQuotaForNamespace} */
    public QuotaAdmission(QuotaTree tree, QuotaSettings settings) {
        this.tree = tree;
        this.settings = settings;
    }

    /** A job enters its queue; submitting a job already known changes nothing. */
    public List<QuotaDecision> submit(QuotaJob job, Instant now) {
        if (admitted.containsKey(job.uid()) || waiting.containsKey(job.uid())) {
            return List.of();
        }
        putWaiting(job.uid(), new Wait(job, leafOf(job), null, null, 0, null, null));
        return evaluate(now);
    }

    /** A job finished, failed for good or was deleted: its quota is released and waiting jobs are re-evaluated. */
    public List<QuotaDecision> release(String uid, Instant now) {
        Admission admission = removeAdmitted(uid);
        if (admission != null) {
            uncharge(admission.job(), admission.leaf(), used);
        } else if (removeWaiting(uid) == null) {
            return List.of();
        }
        return evaluate(now);
    }

    /**
     * Placement gave an admitted job back: its quota is released and it waits again at its original position,
     * not before a backoff that doubles with each give-back.
     */
    public List<QuotaDecision> giveBack(String uid, Instant now) {
        Admission admission = removeAdmitted(uid);
        if (admission == null) {
            return List.of();
        }
        uncharge(admission.job(), admission.leaf(), used);
        int giveBacks = admission.giveBacks() + 1;
        Duration backoff = settings.giveBackBackoff().multipliedBy(1L << Math.min(giveBacks - 1, 10));
        putWaiting(uid, new Wait(admission.job(), admission.leaf(), null, now.plus(backoff), giveBacks, null, null));
        return evaluate(now);
    }

    /**
     * Applies a new tree and re-evaluates every waiting job. Usage is recomputed under the new tree; a
     * smaller max does not preempt anything, it only stops admissions until usage falls below it.
     *
     * @throws TreeChangeRejectedException when an admitted job's leaf would disappear or stop being a leaf
     */
    public List<QuotaDecision> replaceTree(QuotaTree newTree, Instant now) throws TreeChangeRejectedException {
        Map<String, List<String>> stranded = new LinkedHashMap<>();
        for (Admission admission : admitted.values()) {
            Optional<Node> leaf = newTree.node(admission.leaf());
            if (leaf.isEmpty() || !leaf.get().isLeaf()) {
                stranded.computeIfAbsent(admission.leaf(), name -> new ArrayList<>()).add(admission.job().ref());
            }
        }
        if (!stranded.isEmpty()) {
            throw new TreeChangeRejectedException(stranded.entrySet().stream()
                    .map(entry -> "cannot remove quota leaf \"" + entry.getKey() + "\": " + entry.getValue().size()
                            + " admitted job(s) charged to it (" + String.join(", ", entry.getValue()) + ")")
                    .collect(Collectors.joining("; ")));
        }
        tree = newTree;
        used.clear();
        admitted.values().forEach(admission -> charge(admission.job(), admission.leaf(), used));
        for (Wait wait : List.copyOf(waiting.values())) {
            putWaiting(wait.job().uid(), new Wait(wait.job(), leafOf(wait.job()), wait.waitingSince(), wait.notBefore(),
                    wait.giveBacks(), wait.reason(), wait.message()));
        }
        return evaluate(now);
    }

    /**
     * Removes the tree: every waiting job then waits with {@code NoQuotaForNamespace}.
     *
     * @throws TreeChangeRejectedException when jobs are admitted under it
     */
    public List<QuotaDecision> removeTree(Instant now) throws TreeChangeRejectedException {
        if (!admitted.isEmpty()) {
            throw new TreeChangeRejectedException("cannot delete the ElasticQuotaTree: " + admitted.size()
                    + " admitted job(s) are charged to it (" + admitted.values().stream().map(admission -> admission.job().ref())
                    .collect(Collectors.joining(", ")) + ")");
        }
        tree = null;
        used.clear();
        for (Wait wait : List.copyOf(waiting.values())) {
            putWaiting(wait.job().uid(), new Wait(wait.job(), null, wait.waitingSince(), wait.notBefore(), wait.giveBacks(),
                    wait.reason(), wait.message()));
        }
        return evaluate(now);
    }

    /** Re-evaluates waiting jobs as time passes: backoffs expire and the starvation guard starts to hold capacity. */
    public List<QuotaDecision> reevaluate(Instant now) {
        return evaluate(now);
    }

    /** What the node and its subtree use now, {@code kube-queue/max-jobs} counting admitted jobs. */
    public ResourceList usage(String node) {
        return used.getOrDefault(node, ResourceList.empty());
    }

    /** The jobs waiting in a leaf's queue, head first. */
    public List<QuotaJob> queue(String leaf) {
        return waiting.values().stream().filter(wait -> leaf.equals(wait.leaf())).map(Wait::job).sorted(QUEUE_ORDER).toList();
    }

    /**
     * One queue's depth and its longest-waiting job's submission time.
     *
     * @param oldestSubmitted null when the queue is empty
     */
    public record QueueSummary(String leaf, String queue, int depth, Instant oldestSubmitted) {
    }

    /** Every leaf's queue in one pass over the waiting jobs, for metrics. */
    public List<QueueSummary> queueSummaries() {
        if (tree == null) {
            return List.of();
        }
        Map<String, Integer> depth = new HashMap<>();
        Map<String, Instant> oldest = new HashMap<>();
        for (Wait wait : waiting.values()) {
            if (wait.leaf() != null) {
                depth.merge(wait.leaf(), 1, Integer::sum);
                oldest.merge(wait.leaf(), wait.job().submittedAt(), (a, b) -> a.isBefore(b) ? a : b);
            }
        }
        return tree.nodes().stream().filter(Node::isLeaf)
                .map(leaf -> new QueueSummary(leaf.name(), leaf.queue(), depth.getOrDefault(leaf.name(), 0), oldest.get(leaf.name())))
                .toList();
    }

    public boolean isAdmitted(String uid) {
        return admitted.containsKey(uid);
    }

    public boolean isWaiting(String uid) {
        return waiting.containsKey(uid);
    }

    /** The admitted jobs, in order of admission. */
    public List<QuotaJob> admittedJobs() {
        return admitted.values().stream().map(Admission::job).toList();
    }

    public Optional<QuotaTree> tree() {
        return Optional.ofNullable(tree);
    }

    /** The job's standing, if quota knows the job. */
    public Optional<JobStanding> standing(String uid) {
        Admission admission = admitted.get(uid);
        if (admission != null) {
            return Optional.of(new JobStanding(admission.job(), admission.leaf(), admission.admittedAt(), null, null,
                    admission.giveBacks(), null, null));
        }
        Wait wait = waiting.get(uid);
        return wait == null ? Optional.empty() : Optional.of(new JobStanding(wait.job(), wait.leaf(), null, wait.waitingSince(),
                wait.notBefore(), wait.giveBacks(), wait.reason(), wait.message()));
    }

    /**
     * The jobs whose standing changed since the last call: the service persists each one's new
     * {@link #standing} (or its removal, when there is none) together with the decisions.
     */
    public Set<String> drainChanges() {
        Set<String> drained = Set.copyOf(changed);
        changed.clear();
        return drained;
    }

    /**
     * A quota core in the state the standings describe, as persisted by a service that stopped. Usage is
     * recomputed from the admitted jobs; nothing is decided until the next event.
     *
     * @throws IllegalArgumentException when a standing names a leaf the tree does not have
     */
    public static QuotaAdmission restore(QuotaTree tree, QuotaSettings settings, java.util.Collection<JobStanding> standings) {
        QuotaAdmission quota = new QuotaAdmission(tree, settings);
        standings.stream().sorted(Comparator.comparingLong(standing -> standing.job().sequence())).forEach(standing -> {
            if (standing.leaf() != null && (tree == null || tree.node(standing.leaf()).isEmpty())) {
                throw new IllegalArgumentException("job " + standing.job().ref() + " stands in quota leaf \"" + standing.leaf()
                        + "\", which the tree does not have");
            }
            if (standing.admitted()) {
                quota.admitted.put(standing.job().uid(), new Admission(standing.job(), standing.leaf(), standing.admittedAt(),
                        standing.giveBacks()));
                quota.charge(standing.job(), standing.leaf(), quota.used);
            } else {
                quota.waiting.put(standing.job().uid(), new Wait(standing.job(), standing.leaf(), standing.waitingSince(),
                        standing.notBefore(), standing.giveBacks(), standing.reason(), standing.message()));
            }
        });
        return quota;
    }

    // --- evaluation -----------------------------------------------------------------------------------------

    private List<QuotaDecision> evaluate(Instant now) {
        List<QuotaDecision> decisions = new ArrayList<>();
        // Each reclaim admits one guaranteed job; the loop ends when a pass reclaims nothing.
        do {
            admitInOrder(now, decisions);
        } while (tree != null && tree.reclaim() == ReclaimPolicy.PREEMPT && reclaimOnce(now, decisions));
        return decisions;
    }

    private void admitInOrder(Instant now, List<QuotaDecision> decisions) {
        Map<String, List<Wait>> queues = new LinkedHashMap<>();
        for (Wait wait : waiting.values()) {
            if (wait.leaf() == null) {
                report(wait, null, 0, NO_QUOTA_FOR_NAMESPACE, "namespace \"" + wait.job().namespace()
                        + "\" is bound to no quota leaf of the ElasticQuotaTree", decisions);
            } else {
                queues.computeIfAbsent(wait.leaf(), leaf -> new ArrayList<>()).add(wait);
            }
        }
        Map<String, ResourceList> held = new HashMap<>();
        Map<String, Set<String>> holders = new HashMap<>();
        PriorityQueue<Cursor> heads = new PriorityQueue<>();
        for (Map.Entry<String, List<Wait>> queue : queues.entrySet()) {
            queue.getValue().sort(Comparator.comparing(Wait::job, QUEUE_ORDER));
            Cursor cursor = new Cursor(tree.node(queue.getKey()).orElseThrow(), queue.getValue());
            cursor.rank(now);
            heads.add(cursor);
        }
        while (!heads.isEmpty()) {
            Cursor cursor = heads.poll();
            consider(cursor, now, held, holders, decisions);
            if (cursor.advance()) {
                cursor.rank(now);
                heads.add(cursor);
            }
        }
    }

    /** Decides the head of one queue: admit it, or say why it waits. */
    private void consider(Cursor cursor, Instant now, Map<String, ResourceList> held, Map<String, Set<String>> holders,
                          List<QuotaDecision> decisions) {
        // The cursor sorted the waits as they were when the pass began; decide on what is known now.
        Wait wait = waiting.getOrDefault(cursor.head().job().uid(), cursor.head());
        int position = cursor.position();
        String queue = cursor.leaf.queue();
        if (cursor.blockedBy != null) {
            report(wait, queue, position, BEHIND_STRICT_HEAD, "behind " + cursor.blockedBy
                    + " at the head of strict FIFO queue " + queue, decisions);
            return;
        }
        if (wait.notBefore() != null && now.isBefore(wait.notBefore())) {
            report(wait, queue, position, BACKOFF, "given back by placement; may be admitted again from " + wait.notBefore(), decisions);
            cursor.blockIfStrict(wait, settings);
            return;
        }
        List<Node> path = tree.pathToRoot(cursor.leaf);
        ResourceList charge = wait.job().charge();
        Optional<Shortfall> never = firstShortfall(path, charge, Map.of(), Map.of(), Map.of());
        if (never.isPresent()) {
            Shortfall limit = never.get();
            report(wait, queue, position, QUOTA_NEVER_FITS, limit.node().pathText() + ": " + limit.resource() + " max "
                    + Quantities.format(limit.resource(), limit.max()) + ", job needs " + Quantities.format(limit.resource(), limit.need())
                    + "; it can never be admitted under this tree", decisions);
            return;
        }
        Optional<Shortfall> shortfall = firstShortfall(path, charge, used, held, holders);
        if (shortfall.isEmpty()) {
            admit(wait, now, decisions);
            cursor.removeHead();
            return;
        }
        Wait current = wait.waitingSince() == null ? wait.since(now) : wait;
        putWaiting(current.job().uid(), current);
        if (isStarving(current, now)) {
            for (Node node : path) {
                held.merge(node.name(), charge, ResourceList::plus);
                holders.computeIfAbsent(node.name(), name -> new LinkedHashSet<>()).add(current.job().ref());
            }
        }
        Shortfall limit = shortfall.get();
        report(current, queue, position, limit.causedByHeldCapacity() ? HELD_FOR_STARVING_JOB : QUOTA_EXCEEDED, limit.message(), decisions);
        cursor.blockIfStrict(current, settings);
    }

    private void admit(Wait wait, Instant now, List<QuotaDecision> decisions) {
        removeWaiting(wait.job().uid());
        charge(wait.job(), wait.leaf(), used);
        putAdmitted(wait.job().uid(), new Admission(wait.job(), wait.leaf(), now, wait.giveBacks()));
        decisions.add(new Admitted(wait.job(), wait.leaf()));
    }

    private boolean isStarving(Wait wait, Instant now) {
        return wait.waitingSince() != null && !now.isBefore(wait.waitingSince().plus(settings.starvationAge()));
    }

    private Optional<Shortfall> firstShortfall(List<Node> path, ResourceList charge, Map<String, ResourceList> usage,
                                               Map<String, ResourceList> held, Map<String, Set<String>> holders) {
        for (Node node : path) {
            ResourceList nodeUsed = usage.getOrDefault(node.name(), ResourceList.empty());
            ResourceList nodeHeld = held.getOrDefault(node.name(), ResourceList.empty());
            for (String resource : node.max().names()) {
                BigDecimal need = charge.amount(resource);
                if (need.signum() == 0) {
                    continue;
                }
                BigDecimal inUse = nodeUsed.amount(resource);
                BigDecimal onHold = nodeHeld.amount(resource);
                if (inUse.add(onHold).add(need).compareTo(node.max().amount(resource)) > 0) {
                    return Optional.of(new Shortfall(node, resource, inUse, onHold, node.max().amount(resource), need,
                            holders.getOrDefault(node.name(), Set.of())));
                }
            }
        }
        return Optional.empty();
    }

    /** Says why a job waits, once per change of reason or message. */
    private void report(Wait wait, String queue, int position, String reason, String message, List<QuotaDecision> decisions) {
        if (reason.equals(wait.reason()) && message.equals(wait.message())) {
            return;
        }
        putWaiting(wait.job().uid(), wait.reported(reason, message));
        decisions.add(new Waiting(wait.job(), queue, position, reason, message));
    }

    // --- reclaim --------------------------------------------------------------------------------------------

    /** Finds one guaranteed job that borrowed capacity blocks and preempts just enough borrowers for it. */
    private boolean reclaimOnce(Instant now, List<QuotaDecision> decisions) {
        List<Wait> candidates = waiting.values().stream()
                .filter(wait -> QUOTA_EXCEEDED.equals(wait.reason()) || HELD_FOR_STARVING_JOB.equals(wait.reason()))
                .sorted(Comparator.comparing(Wait::job, QUEUE_ORDER)).toList();
        for (Wait wait : candidates) {
            Node leaf = tree.node(wait.leaf()).orElseThrow();
            List<Node> path = tree.pathToRoot(leaf);
            if (!isWithinGuarantee(path, wait.job())) {
                continue;
            }
            List<Admission> victims = victimsFor(path, wait.job());
            if (victims.isEmpty()) {
                continue;
            }
            for (Admission victim : victims) {
                removeAdmitted(victim.job().uid());
                uncharge(victim.job(), victim.leaf(), used);
                putWaiting(victim.job().uid(), new Wait(victim.job(), victim.leaf(), null, null, victim.giveBacks(), null, null));
                decisions.add(new Preempted(victim.job(), wait.job(), "preempted to return borrowed capacity to "
                        + wait.job().ref() + ", which is within the guaranteed min of " + leaf.pathText()));
            }
            admit(wait, now, decisions);
            return true;
        }
        return false;
    }

    /** Whether the job fits within the guaranteed min of every node on its path below the root. */
    private boolean isWithinGuarantee(List<Node> path, QuotaJob job) {
        for (Node node : path.subList(0, path.size() - 1)) {
            ResourceList nodeUsed = usage(node.name());
            for (String resource : job.demand().names()) {
                BigDecimal need = job.demand().amount(resource);
                if (need.signum() > 0 && (!node.min().names(resource)
                        || nodeUsed.amount(resource).add(need).compareTo(node.min().amount(resource)) > 0)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The fewest admitted jobs, lowest priority and newest first, whose removal lets the job fit, taken only
     * from sibling subtrees that use more than their own min of a resource the job lacks; none when even all
     * of them would not be enough.
     */
    private List<Admission> victimsFor(List<Node> path, QuotaJob job) {
        Set<String> onPath = path.stream().map(Node::name).collect(Collectors.toSet());
        List<Admission> eligible = admitted.values().stream()
                .filter(admission -> borrowingBranch(admission, path, onPath, job, used).isPresent())
                .sorted(Comparator.comparingInt((Admission admission) -> admission.job().priority())
                        .thenComparing(Admission::admittedAt, Comparator.reverseOrder())
                        .thenComparing(admission -> admission.job().sequence(), Comparator.reverseOrder()))
                .toList();
        Map<String, ResourceList> simulated = new HashMap<>(used);
        List<Admission> chosen = new ArrayList<>();
        for (Admission candidate : eligible) {
            if (firstShortfall(path, job.charge(), simulated, Map.of(), Map.of()).isEmpty()) {
                break;
            }
            if (borrowingBranch(candidate, path, onPath, job, simulated).isPresent()) {
                uncharge(candidate.job(), candidate.leaf(), simulated);
                chosen.add(candidate);
            }
        }
        return firstShortfall(path, job.charge(), simulated, Map.of(), Map.of()).isEmpty() ? chosen : List.of();
    }

    /**
     * The node through which an admitted job borrows from the waiting job's path: the child, off that path,
     * of a node on it where the waiting job is short, using more than its min of a resource the job is short of.
     */
    private Optional<Node> borrowingBranch(Admission admission, List<Node> path, Set<String> onPath, QuotaJob job,
                                           Map<String, ResourceList> usage) {
        List<String> victimPath = tree.node(admission.leaf()).orElseThrow().path();
        for (int depth = 0; depth < victimPath.size() - 1; depth++) {
            String ancestor = victimPath.get(depth);
            String branch = victimPath.get(depth + 1);
            if (!onPath.contains(ancestor) || onPath.contains(branch)) {
                continue;
            }
            Node ancestorNode = tree.node(ancestor).orElseThrow();
            Node branchNode = tree.node(branch).orElseThrow();
            ResourceList ancestorUsed = usage.getOrDefault(ancestor, ResourceList.empty());
            ResourceList branchUsed = usage.getOrDefault(branch, ResourceList.empty());
            for (String resource : ancestorNode.max().names()) {
                BigDecimal need = job.charge().amount(resource);
                boolean lacking = need.signum() > 0
                        && ancestorUsed.amount(resource).add(need).compareTo(ancestorNode.max().amount(resource)) > 0;
                boolean borrowing = branchUsed.amount(resource).compareTo(branchNode.min().amount(resource)) > 0
                        && admission.job().charge().amount(resource).signum() > 0;
                if (lacking && borrowing) {
                    return Optional.of(branchNode);
                }
            }
        }
        return Optional.empty();
    }

    // --- bookkeeping ----------------------------------------------------------------------------------------

    // Every write goes through these, so drainChanges() knows exactly which standings to persist.
    private void putWaiting(String uid, Wait wait) {
        if (!wait.equals(waiting.put(uid, wait))) {
            changed.add(uid);
        }
    }

    private Wait removeWaiting(String uid) {
        Wait removed = waiting.remove(uid);
        if (removed != null) {
            changed.add(uid);
        }
        return removed;
    }

    private void putAdmitted(String uid, Admission admission) {
        admitted.put(uid, admission);
        changed.add(uid);
    }

    private Admission removeAdmitted(String uid) {
        Admission removed = admitted.remove(uid);
        if (removed != null) {
            changed.add(uid);
        }
        return removed;
    }

    private String leafOf(QuotaJob job) {
        return tree == null ? null : tree.leafFor(job.namespace()).map(Node::name).orElse(null);
    }

    private void charge(QuotaJob job, String leaf, Map<String, ResourceList> usage) {
        ResourceList charge = job.charge();
        for (Node node : tree.pathToRoot(tree.node(leaf).orElseThrow())) {
            usage.merge(node.name(), charge, ResourceList::plus);
        }
    }

    private void uncharge(QuotaJob job, String leaf, Map<String, ResourceList> usage) {
        ResourceList charge = job.charge();
        for (Node node : tree.pathToRoot(tree.node(leaf).orElseThrow())) {
            usage.merge(node.name(), charge, ResourceList::minus);
        }
    }

    /**
     * Walks one leaf's queue in order during an evaluation; ranked against the other queues' heads by
     * starvation, then guarantee, then the head's own order.
     */
    private final class Cursor implements Comparable<Cursor> {

        private final Node leaf;
        private final List<Wait> jobs;
        private int index;
        private int removed;
        private String blockedBy;
        private boolean starving;
        private boolean guaranteed;

        Cursor(Node leaf, List<Wait> jobs) {
            this.leaf = leaf;
            this.jobs = jobs;
        }

        Wait head() {
            return jobs.get(index);
        }

        /** 1-based position of the head in its queue, counting only jobs still waiting. */
        int position() {
            return index - removed + 1;
        }

        void removeHead() {
            removed++;
        }

        boolean advance() {
            index++;
            return index < jobs.size();
        }

        void rank(Instant now) {
            Wait head = waiting.getOrDefault(head().job().uid(), head());
            starving = isStarving(head, now);
            guaranteed = isWithinGuarantee(tree.pathToRoot(leaf), head.job());
        }

        void blockIfStrict(Wait head, QuotaSettings settings) {
            if (settings.strictFifoLeaves().contains(leaf.name())) {
                blockedBy = head.job().ref();
            }
        }

        @Override
        public int compareTo(Cursor other) {
            if (starving != other.starving) {
                return starving ? -1 : 1;
            }
            if (guaranteed != other.guaranteed) {
                return guaranteed ? -1 : 1;
            }
            return QUEUE_ORDER.compare(head().job(), other.head().job());
        }
    }

}
