package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
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
    public static final String HELD_FOR_RECLAIM = "HeldForReclaim";
    public static final String BEHIND_STRICT_HEAD = "BehindStrictHead";
    public static final String BACKOFF = "Backoff";
    public static final String RECLAIMING = "Reclaiming";

    private static final ResourceList ONE_JOB = ResourceList.of(ResourceNames.MAX_JOBS, BigDecimal.ONE);
    /** The key of {@link #queues} for the jobs bound to no leaf; no node name is empty. */
    private static final String UNBOUND = "";

    private static final Comparator<QuotaJob> QUEUE_ORDER = Comparator.comparingInt(QuotaJob::priority).reversed()
            .thenComparing(QuotaJob::submittedAt)
            .thenComparingLong(QuotaJob::sequence);
    /** The queue order made total, so that a sorted set never takes two jobs for one. */
    private static final Comparator<QuotaJob> QUEUE_SET_ORDER = QUEUE_ORDER.thenComparing(QuotaJob::uid);

    private final QuotaSettings settings;
    private QuotaTree tree;
    private final Map<String, ResourceList> used = new HashMap<>();
    private final Map<String, Admission> admitted = new LinkedHashMap<>();
    private final Map<String, Wait> waiting = new LinkedHashMap<>();
    /**
     * The waiting jobs of each leaf in queue order, kept as they come and go so that an evaluation walks the
     * queues without sorting them; the jobs bound to no leaf under the key "".
     */
    private final Map<String, NavigableSet<QuotaJob>> queues = new HashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();
    /** What one evaluation pass has already worked out, for the many waiting jobs that ask the same. */
    private final PassMemo memo = new PassMemo();
    /** The queues an evaluation may pass over, by leaf: see {@link Settled}. */
    private final Map<String, Settled> settled = new HashMap<>();

    /**
     * An admitted job, charged to its leaf and every ancestor.
     *
     * @param giveBacks   how many times placement gave the job back so far, so each backoff doubles the last
     * @param preemptedBy the job it is being preempted for, or null: a preempted job stays charged until it has
     *                    stopped on its member, so that no quota node is above its max while its pods terminate
     * @param withdrawn   whether it was deleted: it stays charged until it has stopped on its member, then leaves
     */
    record Admission(QuotaJob job, String leaf, Instant admittedAt, int giveBacks, String preemptedBy, boolean withdrawn) {

        boolean preempting() {
            return preemptedBy != null;
        }

        /** Being stopped on its member, for a reclaim or because it was deleted: charged, but no one's to take again. */
        boolean stopping() {
            return preempting() || withdrawn;
        }
    }

    /**
     * A waiting job and what was last said about it.
     *
     * @param waitingSince when it first did not fit; the starvation guard counts from here
     * @param notBefore    when a job given back may be admitted again
     * @param giveBacks    how many times placement gave it back
     * @param reclaiming   the preempted jobs it waits for to stop, by UID, in the order they were chosen; empty when none
     */
    private record Wait(QuotaJob job, String leaf, Instant waitingSince, Instant notBefore, int giveBacks,
                        String reason, String message, List<String> reclaiming) {

        Wait {
            reclaiming = List.copyOf(reclaiming);
        }

        /** A job that waits afresh: in its leaf's queue, at the place its priority and submission give it. */
        static Wait fresh(QuotaJob job, String leaf, Instant notBefore, int giveBacks) {
            return new Wait(job, leaf, null, notBefore, giveBacks, null, null, List.of());
        }

        Wait reported(String newReason, String newMessage) {
            return new Wait(job, leaf, waitingSince, notBefore, giveBacks, newReason, newMessage, reclaiming);
        }

        Wait since(Instant time) {
            return new Wait(job, leaf, time, notBefore, giveBacks, reason, message, reclaiming);
        }

        Wait inLeaf(String newLeaf) {
            return new Wait(job, newLeaf, waitingSince, notBefore, giveBacks, reason, message, reclaiming);
        }

        Wait reclaiming(List<String> victims) {
            return new Wait(job, leaf, waitingSince, notBefore, giveBacks, reason, message, victims);
        }
    }

    /** How many of the starving jobs capacity is held for a waiting message names. */
    private static final int HOLDERS_NAMED = 3;

    /**
     * Capacity held, within one evaluation, for jobs that must not be passed: those starving, and those reclaiming
     * capacity whose victims are stopping (what a stopped victim frees is theirs). By node, with who holds it.
     */
    private static final class Holds {

        static final Holds NONE = new Holds();

        final Map<String, ResourceList> held = new HashMap<>();
        final Map<String, Set<String>> starving = new HashMap<>();
        final Map<String, Set<String>> reclaimers = new HashMap<>();

        void hold(List<Node> path, QuotaJob job, boolean isStarving) {
            for (Node node : path) {
                held.merge(node.name(), job.charge(), ResourceList::plus);
                (isStarving ? starving : reclaimers).computeIfAbsent(node.name(), name -> new LinkedHashSet<>()).add(job.ref());
            }
        }
    }

    /** A limit a job would break, for the waiting reason. */
    private record Shortfall(Node node, String resource, BigDecimal used, BigDecimal held, BigDecimal max, BigDecimal need,
                             Set<String> holders, Set<String> reclaimers) {

        boolean causedByHeldCapacity() {
            return held.signum() > 0 && used.add(need).compareTo(max) <= 0;
        }

        String reason() {
            if (!causedByHeldCapacity()) {
                return QUOTA_EXCEEDED;
            }
            return holders.isEmpty() ? HELD_FOR_RECLAIM : HELD_FOR_STARVING_JOB;
        }

        /** What the message says before its numbers: the node and the resource. */
        String blocker() {
            return node.pathText() + ": " + resource + " ";
        }

        String message() {
            StringBuilder text = new StringBuilder(blocker())
                    .append(Quantities.format(resource, used)).append('/').append(Quantities.format(resource, max)).append(" in use");
            if (held.signum() > 0) {
                text.append(" and ").append(Quantities.format(resource, held)).append(" held for ");
                if (!holders.isEmpty()) {
                    text.append("starving ").append(holders.stream().limit(HOLDERS_NAMED).collect(Collectors.joining(", ")));
                    // Under overload thousands of jobs may starve: the message names a few.
                    if (holders.size() > HOLDERS_NAMED) {
                        text.append(" and others");
                    }
                }
                if (!reclaimers.isEmpty()) {
                    text.append(holders.isEmpty() ? "" : " and ").append(reclaimers.size() == 1 ? "reclaimer " : "reclaimers ")
                            .append(String.join(", ", reclaimers));
                }
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
        putWaiting(job.uid(), Wait.fresh(job, leafOf(job), null, 0));
        return evaluate(now);
    }

    /**
     * Why a job of this demand in this namespace could never be admitted under the tree in force (a node's max is
     * smaller than the demand); empty when it could, or when no tree or leaf says yet.
     */
    public Optional<String> neverFits(String namespace, ResourceList demand) {
        if (tree == null) {
            return Optional.empty();
        }
        return tree.leafFor(namespace).flatMap(leaf -> firstShortfall(tree.pathToRoot(leaf), demand.plus(ONE_JOB), Map.of(), Holds.NONE))
                .map(QuotaAdmission::neverMessage);
    }

    private static String neverMessage(Shortfall limit) {
        return limit.node().pathText() + ": " + limit.resource() + " max " + Quantities.format(limit.resource(), limit.max())
                + ", job needs " + Quantities.format(limit.resource(), limit.need()) + "; it can never be admitted under this tree";
    }

    /**
     * A job finished or failed for good (its pods hold nothing), or a waiting job was deleted: its quota is released and
     * waiting jobs are re-evaluated. An admitted job that is deleted is {@linkplain #withdraw withdrawn} instead.
     */
    public List<QuotaDecision> release(String uid, Instant now) {
        List<QuotaDecision> decisions = new ArrayList<>();
        Admission admission = removeAdmitted(uid);
        if (admission != null) {
            uncharge(admission.job(), admission.leaf(), used);
            if (admission.preempting()) {
                victimGone(uid, now, decisions);
            }
        } else if (removeWaiting(uid) == null) {
            return List.of();
        }
        decisions.addAll(evaluate(now));
        return decisions;
    }

    /**
     * An admitted job was deleted: it stays charged until placement has stopped it on its member ({@link #stopped}), and
     * then leaves. False, and nothing changes, for a job that is not admitted: a waiting one is {@linkplain #release released}.
     */
    public boolean withdraw(String uid) {
        Admission admission = admitted.get(uid);
        if (admission == null) {
            return false;
        }
        if (!admission.withdrawn()) {
            putAdmitted(uid, new Admission(admission.job(), admission.leaf(), admission.admittedAt(), admission.giveBacks(),
                    admission.preemptedBy(), true));
        }
        return true;
    }

    /**
     * A preempted or withdrawn job has stopped on its member (its pods and reservations are gone): its quota is released;
     * a preempted one waits again at its original position, a withdrawn one leaves; a reclaimer no longer waiting for any
     * victim is admitted first. Nothing changes for a job that is not being stopped, so a repeat is harmless.
     */
    public List<QuotaDecision> stopped(String uid, Instant now) {
        Admission admission = admitted.get(uid);
        if (admission == null || !admission.stopping()) {
            return List.of();
        }
        removeAdmitted(uid);
        uncharge(admission.job(), admission.leaf(), used);
        if (!admission.withdrawn()) {
            putWaiting(uid, Wait.fresh(admission.job(), admission.leaf(), null, admission.giveBacks()));
        }
        List<QuotaDecision> decisions = new ArrayList<>();
        if (admission.preempting()) {
            victimGone(uid, now, decisions);
        }
        decisions.addAll(evaluate(now));
        return decisions;
    }

    /** Whether the job was preempted and has not stopped on its member yet. */
    public boolean isPreempting(String uid) {
        Admission admission = admitted.get(uid);
        return admission != null && admission.preempting();
    }

    /** The reclaimer the victim was waited for by no longer waits for it; the last one gone, it is admitted if it fits. */
    private void victimGone(String victim, Instant now, List<QuotaDecision> decisions) {
        for (Wait wait : List.copyOf(waiting.values())) {
            if (wait.reclaiming().contains(victim)) {
                List<String> left = new ArrayList<>(wait.reclaiming());
                left.remove(victim);
                Wait current = wait.reclaiming(left);
                putWaiting(wait.job().uid(), current);
                Node leaf = tree.node(current.leaf()).orElseThrow();
                // The capacity the victims freed is the reclaimer's: it goes first, before any job an evaluation ranks higher.
                if (left.isEmpty() && fitsUnderMax(tree.pathToRoot(leaf), current.job().charge(), used)) {
                    admit(current, now, decisions);
                }
            }
        }
    }

    /**
     * Placement gave an admitted job back: its quota is released and it waits again at its original position,
     * not before a backoff that doubles with each give-back.
     */
    public List<QuotaDecision> giveBack(String uid, Instant now) {
        Admission admission = admitted.get(uid);
        if (admission == null) {
            return List.of();
        }
        if (admission.stopping()) {
            // Given back before placement heard it was to stop: it holds nothing on any member, so it has stopped.
            return stopped(uid, now);
        }
        removeAdmitted(uid);
        uncharge(admission.job(), admission.leaf(), used);
        int giveBacks = admission.giveBacks() + 1;
        Duration backoff = settings.giveBackBackoff().multipliedBy(1L << Math.min(giveBacks - 1, 10));
        putWaiting(uid, Wait.fresh(admission.job(), admission.leaf(), now.plus(backoff), giveBacks));
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
            putWaiting(wait.job().uid(), wait.inLeaf(leafOf(wait.job())));
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
            putWaiting(wait.job().uid(), wait.inLeaf(null));
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
        return List.copyOf(queues.getOrDefault(leaf, java.util.Collections.emptyNavigableSet()));
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

    /**
     * Each node's use of each resource its min or max names, root first, with the jobs waiting in its subtree:
     * what {@code kubectl muster queues} shows.
     */
    public List<dev.muster.model.quota.QuotaUsageRow> usageReport() {
        if (tree == null) {
            return List.of();
        }
        Map<String, Integer> waitingUnder = new HashMap<>();
        for (QueueSummary summary : queueSummaries()) {
            for (String name : tree.node(summary.leaf()).orElseThrow().path()) {
                waitingUnder.merge(name, summary.depth(), Integer::sum);
            }
        }
        List<dev.muster.model.quota.QuotaUsageRow> rows = new ArrayList<>();
        for (Node node : tree.nodes()) {
            java.util.SortedSet<String> resources = new java.util.TreeSet<>(node.max().names());
            resources.addAll(node.min().names());
            for (String resource : resources) {
                rows.add(new dev.muster.model.quota.QuotaUsageRow(node.pathText(), node.queue(), waitingUnder.getOrDefault(node.name(), 0),
                        resource, Quantities.format(resource, usage(node.name()).amount(resource)),
                        node.min().names().contains(resource) ? Quantities.format(resource, node.min().amount(resource)) : "",
                        node.max().names().contains(resource) ? Quantities.format(resource, node.max().amount(resource)) : ""));
            }
        }
        return rows;
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

    /**
     * Why a waiting job waits, with the numbers of now: the reason told on the job keeps those of when it was told
     * (see {@link #report}), which the views must not show as current. Empty for a job not waiting on a quota limit.
     */
    public Optional<String> currentMessage(String uid) {
        Wait wait = waiting.get(uid);
        if (wait == null || tree == null || wait.leaf() == null || !QUOTA_EXCEEDED.equals(wait.reason())) {
            return Optional.empty();
        }
        return tree.node(wait.leaf()).flatMap(leaf -> firstShortfall(tree.pathToRoot(leaf), wait.job().charge(), used, Holds.NONE))
                .map(Shortfall::message);
    }

    /** The job's standing, if quota knows the job. */
    public Optional<JobStanding> standing(String uid) {
        Admission admission = admitted.get(uid);
        if (admission != null) {
            return Optional.of(new JobStanding(admission.job(), admission.leaf(), admission.admittedAt(), null, null,
                    admission.giveBacks(), null, null, admission.preemptedBy(), List.of(), admission.withdrawn()));
        }
        Wait wait = waiting.get(uid);
        return wait == null ? Optional.empty() : Optional.of(new JobStanding(wait.job(), wait.leaf(), null, wait.waitingSince(),
                wait.notBefore(), wait.giveBacks(), wait.reason(), wait.message(), null, wait.reclaiming(), false));
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
                        standing.giveBacks(), standing.preemptedBy(), standing.withdrawn()));
                quota.charge(standing.job(), standing.leaf(), quota.used);
            } else {
                quota.putWaiting(standing.job().uid(), new Wait(standing.job(), standing.leaf(), standing.waitingSince(),
                        standing.notBefore(), standing.giveBacks(), standing.reason(), standing.message(), standing.reclaiming()));
            }
        });
        // Restoring is not a change: the standings are already persisted.
        quota.changed.clear();
        return quota;
    }

    // --- evaluation -----------------------------------------------------------------------------------------

    private List<QuotaDecision> evaluate(Instant now) {
        List<QuotaDecision> decisions = new ArrayList<>();
        memo.forget();
        // Each reclaim admits one guaranteed job; the loop ends when a pass reclaims nothing.
        do {
            admitInOrder(now, decisions);
        } while (tree != null && tree.reclaim() == ReclaimPolicy.PREEMPT && reclaimOnce(now, decisions));
        return decisions;
    }

    private void admitInOrder(Instant now, List<QuotaDecision> decisions) {
        for (QuotaJob job : List.copyOf(queues.getOrDefault(UNBOUND, java.util.Collections.emptyNavigableSet()))) {
            report(waiting.get(job.uid()), null, 0, NO_QUOTA_FOR_NAMESPACE, "namespace \"" + job.namespace()
                    + "\" is bound to no quota leaf of the ElasticQuotaTree", decisions);
        }
        Holds holds = new Holds();
        PriorityQueue<Cursor> heads = new PriorityQueue<>();
        for (Map.Entry<String, NavigableSet<QuotaJob>> queue : queues.entrySet()) {
            if (queue.getKey().equals(UNBOUND) || queue.getValue().isEmpty()) {
                continue;
            }
            Settled before = settled.get(queue.getKey());
            if (before != null && before.holds(tree, used.get(queue.getKey()), now)) {
                continue;
            }
            Cursor cursor = new Cursor(tree.node(queue.getKey()).orElseThrow(), List.copyOf(queue.getValue()));
            cursor.rank(now);
            heads.add(cursor);
        }
        while (!heads.isEmpty()) {
            Cursor cursor = heads.poll();
            consider(cursor, now, holds, decisions);
            if (cursor.advance()) {
                cursor.rank(now);
                heads.add(cursor);
            } else if (cursor.settles) {
                settled.put(cursor.leaf.name(), new Settled(tree, used.get(cursor.leaf.name()), cursor.firstStarving));
            }
        }
    }

    /** Decides the head of one queue: admit it, or say why it waits. */
    private void consider(Cursor cursor, Instant now, Holds holds, List<QuotaDecision> decisions) {
        Wait wait = cursor.head();
        int position = cursor.position();
        String queue = cursor.leaf.queue();
        if (cursor.blockedBy != null) {
            cursor.settles = false;
            report(wait, queue, position, BEHIND_STRICT_HEAD, "behind " + cursor.blockedBy
                    + " at the head of strict FIFO queue " + queue, decisions);
            return;
        }
        if (wait.notBefore() != null && now.isBefore(wait.notBefore())) {
            cursor.settles = false;
            report(wait, queue, position, BACKOFF, "given back by placement; may be admitted again from " + wait.notBefore(), decisions);
            cursor.blockIfStrict(wait, settings);
            return;
        }
        // One answer per leaf and demand: whether the job can never fit the tree, else whether it fits now.
        Verdict verdict = memo.verdict(cursor.leaf, wait.job().demand(), () -> {
            ResourceList charge = wait.job().charge();
            Optional<Shortfall> never = firstShortfall(cursor.path, charge, Map.of(), Holds.NONE);
            if (never.isPresent()) {
                return new Verdict(QUOTA_NEVER_FITS, true, neverMessage(never.get()), null);
            }
            return firstShortfall(cursor.path, charge, used, holds)
                    .map(limit -> new Verdict(limit.reason(), limit.node().name().equals(cursor.leaf.name()), limit.message(), limit.blocker()))
                    .orElse(null);
        });
        if (verdict != null && QUOTA_NEVER_FITS.equals(verdict.reason())) {
            report(wait, queue, position, verdict.reason(), verdict.message(), verdict.blocker(), decisions);
            return;
        }
        if (verdict == null) {
            cursor.settles = false;
            admit(wait, now, decisions);
            cursor.removeHead();
            return;
        }
        if (!wait.reclaiming().isEmpty()) {
            cursor.settles = false;
            holds.hold(cursor.path, wait.job(), false);
            memo.heldChanged();
            report(wait, queue, position, RECLAIMING, reclaimingMessage(wait), decisions);
            cursor.blockIfStrict(wait, settings);
            return;
        }
        Wait current = wait;
        if (wait.waitingSince() == null) {
            current = wait.since(now);
            putWaiting(current.job().uid(), current);
        }
        cursor.settles &= verdict.atLeaf();
        Instant starvesAt = current.waitingSince().plus(settings.starvationAge());
        cursor.firstStarving = cursor.firstStarving == null || starvesAt.isBefore(cursor.firstStarving) ? starvesAt : cursor.firstStarving;
        if (isStarving(current, now)) {
            cursor.settles = false;
            holds.hold(cursor.path, current.job(), true);
            memo.heldChanged();
        }
        report(current, queue, position, verdict.reason(), verdict.message(), verdict.blocker(), decisions);
        cursor.blockIfStrict(current, settings);
    }

    private void admit(Wait wait, Instant now, List<QuotaDecision> decisions) {
        removeWaiting(wait.job().uid());
        charge(wait.job(), wait.leaf(), used);
        memo.usageChanged();
        putAdmitted(wait.job().uid(), new Admission(wait.job(), wait.leaf(), now, wait.giveBacks(), null, false));
        decisions.add(new Admitted(wait.job(), wait.leaf()));
    }

    private boolean isStarving(Wait wait, Instant now) {
        return wait.waitingSince() != null && !now.isBefore(wait.waitingSince().plus(settings.starvationAge()));
    }

    /** Whether the charge fits under every max on the path with this usage. */
    static boolean fitsUnderMax(List<Node> path, ResourceList charge, Map<String, ResourceList> usage) {
        return firstShortfall(path, charge, usage, Holds.NONE).isEmpty();
    }

    private static Optional<Shortfall> firstShortfall(List<Node> path, ResourceList charge, Map<String, ResourceList> usage, Holds holds) {
        for (Node node : path) {
            ResourceList nodeUsed = usage.getOrDefault(node.name(), ResourceList.empty());
            ResourceList nodeHeld = holds.held.getOrDefault(node.name(), ResourceList.empty());
            for (String resource : node.max().names()) {
                BigDecimal need = charge.amount(resource);
                if (need.signum() == 0) {
                    continue;
                }
                BigDecimal inUse = nodeUsed.amount(resource);
                BigDecimal onHold = nodeHeld.amount(resource);
                if (inUse.add(onHold).add(need).compareTo(node.max().amount(resource)) > 0) {
                    return Optional.of(new Shortfall(node, resource, inUse, onHold, node.max().amount(resource), need,
                            holds.starving.getOrDefault(node.name(), Set.of()), holds.reclaimers.getOrDefault(node.name(), Set.of())));
                }
            }
        }
        return Optional.empty();
    }

    /** Says why a job waits, once per change of reason or message. */
    private void report(Wait wait, String queue, int position, String reason, String message, List<QuotaDecision> decisions) {
        report(wait, queue, position, reason, message, null, decisions);
    }

    /**
     * Says why a job waits, once per change of what blocks it. Each admission or release moves the numbers in
     * the messages of every job a quota node blocks, and near the limit tips them between {@code QuotaExceeded}
     * and {@code HeldForStarvingJob}: said again each time, a deep queue made each job about a thousand status
     * updates under overload. So while a quota limit blocks a job, it is told again only when the limit's node
     * or resource changes; the numbers and the reason are those of when it was last told.
     */
    private void report(Wait wait, String queue, int position, String reason, String message, String blocker,
                        List<QuotaDecision> decisions) {
        if (reason.equals(wait.reason()) && message.equals(wait.message())
                || blocker != null && isQuotaLimit(wait.reason()) && wait.message() != null && wait.message().startsWith(blocker)) {
            return;
        }
        putWaiting(wait.job().uid(), wait.reported(reason, message));
        decisions.add(new Waiting(wait.job(), queue, position, reason, message));
    }

    /** Whether a quota limit blocks the job: its own use, or capacity held for other jobs, of which it is the same limit either way. */
    private static boolean isQuotaLimit(String reason) {
        return QUOTA_EXCEEDED.equals(reason) || HELD_FOR_STARVING_JOB.equals(reason) || HELD_FOR_RECLAIM.equals(reason);
    }

    // --- reclaim --------------------------------------------------------------------------------------------

    /**
     * Finds one guaranteed job that borrowed capacity blocks and preempts just enough borrowers for it. The victims
     * stay charged until they have stopped on their members ({@link #stopped}); the reclaimer waits for them, and
     * takes the capacity they free before anyone else.
     */
    private boolean reclaimOnce(Instant now, List<QuotaDecision> decisions) {
        Reclaim reclaim = new Reclaim(tree, used);
        // Only jobs within their guarantee can reclaim; usually few, so they are sorted, not every waiting job.
        List<Wait> candidates = waiting.values().stream()
                .filter(wait -> wait.reclaiming().isEmpty() && isQuotaLimit(wait.reason()))
                .filter(wait -> isWithinGuarantee(tree.node(wait.leaf()).orElseThrow(), wait.job()))
                .sorted(Comparator.comparing(Wait::job, QUEUE_ORDER)).toList();
        for (Wait wait : candidates) {
            Node leaf = tree.node(wait.leaf()).orElseThrow();
            List<Admission> victims = reclaim.victimsFor(tree.pathToRoot(leaf), wait.job(), admitted.values());
            if (victims.isEmpty()) {
                continue;
            }
            for (Admission victim : victims) {
                putAdmitted(victim.job().uid(), new Admission(victim.job(), victim.leaf(), victim.admittedAt(), victim.giveBacks(),
                        wait.job().uid(), false));
                decisions.add(new Preempted(victim.job(), wait.job(), "preempted to return borrowed capacity to "
                        + wait.job().ref() + ", which is within the guaranteed min of " + leaf.pathText()));
            }
            // What this evaluation said of the reclaimer so far is superseded: it is told that it reclaims.
            decisions.removeIf(decision -> decision instanceof Waiting earlier && earlier.job().uid().equals(wait.job().uid()));
            Wait reclaimer = wait.reclaiming(victims.stream().map(victim -> victim.job().uid()).toList());
            putWaiting(reclaimer.job().uid(), reclaimer);
            settled.remove(leaf.name());
            report(reclaimer, leaf.queue(), queue(leaf.name()).indexOf(reclaimer.job()) + 1, RECLAIMING, reclaimingMessage(reclaimer), decisions);
            return true;
        }
        return false;
    }

    private String reclaimingMessage(Wait reclaimer) {
        return "reclaiming borrowed capacity: waiting for " + reclaimer.reclaiming().stream()
                .map(uid -> Optional.ofNullable(admitted.get(uid)).map(victim -> victim.job().ref()).orElse(uid))
                .collect(Collectors.joining(", ")) + " to stop on " + (reclaimer.reclaiming().size() == 1 ? "its member" : "their members");
    }

    /** The same, remembered within a pass for every job of the leaf with the same demand. */
    private boolean isWithinGuarantee(Node leaf, QuotaJob job) {
        return tree.hasGuarantees() && memo.guaranteed(leaf, job.demand(), () -> new Reclaim(tree, used).isWithinGuarantee(tree.pathToRoot(leaf), job));
    }

    // --- bookkeeping ----------------------------------------------------------------------------------------

    // Every write goes through these, so drainChanges() knows exactly which standings to persist.
    private void putWaiting(String uid, Wait wait) {
        Wait previous = waiting.put(uid, wait);
        if (!wait.equals(previous)) {
            changed.add(uid);
        }
        if (previous == null || !Objects.equals(previous.leaf(), wait.leaf())) {
            if (previous != null) {
                leaveQueue(previous);
            }
            queues.computeIfAbsent(queueKey(wait), key -> new TreeSet<>(QUEUE_SET_ORDER)).add(wait.job());
            settled.remove(queueKey(wait));
        }
    }

    private Wait removeWaiting(String uid) {
        Wait removed = waiting.remove(uid);
        if (removed != null) {
            changed.add(uid);
            leaveQueue(removed);
        }
        return removed;
    }

    private void leaveQueue(Wait wait) {
        settled.remove(queueKey(wait));
        NavigableSet<QuotaJob> queue = queues.get(queueKey(wait));
        queue.remove(wait.job());
        if (queue.isEmpty()) {
            queues.remove(queueKey(wait));
        }
    }

    private static String queueKey(Wait wait) {
        return wait.leaf() == null ? UNBOUND : wait.leaf();
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
        uncharge(tree, job, leaf, usage);
    }

    static void uncharge(QuotaTree tree, QuotaJob job, String leaf, Map<String, ResourceList> usage) {
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
        private final List<Node> path;
        private final List<QuotaJob> jobs;
        private int index;
        private int removed;
        private String blockedBy;
        private boolean starving;
        private boolean guaranteed;
        /** The head's place in {@link #QUEUE_ORDER}, kept here: every step of the pass compares heads. */
        private int priority;
        private Instant submittedAt;
        private long sequence;
        /** Whether the pass leaves the queue {@link Settled}, so far. */
        private boolean settles = true;
        private Instant firstStarving;

        Cursor(Node leaf, List<QuotaJob> jobs) {
            this.leaf = leaf;
            this.path = tree.pathToRoot(leaf);
            this.jobs = jobs;
        }

        /** The head as it stands now: a pass changes the waits it decides. */
        Wait head() {
            return waiting.get(jobs.get(index).uid());
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
            Wait head = head();
            starving = isStarving(head, now);
            guaranteed = isWithinGuarantee(leaf, head.job());
            priority = head.job().priority();
            submittedAt = head.job().submittedAt();
            sequence = head.job().sequence();
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
            // QUEUE_ORDER spelled out: this runs for every waiting job of every evaluation.
            if (priority != other.priority) {
                return priority > other.priority ? -1 : 1;
            }
            int bySubmission = submittedAt.compareTo(other.submittedAt);
            return bySubmission != 0 ? bySubmission : Long.compare(sequence, other.sequence);
        }
    }

    /**
     * Why a job waits, as reported: worked out once per leaf and demand while nothing it depends on changes.
     *
     * @param atLeaf  whether the job's own leaf refuses it, so that nothing above the leaf can change the verdict
     * @param blocker what the message names before its numbers (e.g. {@code root/team-a: nvidia.com/gpu }); null
     *                when the whole message says what blocks the job
     */
    private record Verdict(String reason, boolean atLeaf, String message, String blocker) {
    }

    /**
     * A queue whose every job its own leaf refused in the last evaluation, none starving, none in backoff,
     * none behind a strict head. Until the tree, the leaf's usage or the queue's jobs change, or the first of
     * them starves, an evaluation would say the same of each: so it passes over the queue, and a deep queue
     * behind a full leaf costs nothing per event.
     *
     * @param usedAtLeaf    the leaf's usage then, compared by identity: every change of usage makes a new list
     * @param firstStarving when the first of its jobs starts to starve
     */
    private record Settled(QuotaTree tree, ResourceList usedAtLeaf, Instant firstStarving) {

        boolean holds(QuotaTree currentTree, ResourceList currentUsedAtLeaf, Instant now) {
            return tree == currentTree && usedAtLeaf == currentUsedAtLeaf && (firstStarving == null || now.isBefore(firstStarving));
        }
    }

    /**
     * Within one evaluation, what the waiting jobs of one leaf with one demand have in common: their verdict
     * (never fits, fits now, or why not) and whether they are within their guarantee. Queues hold many jobs of
     * few sizes, so most jobs find their answer here. Verdicts are forgotten when usage or held capacity
     * changes, guarantees when usage does; everything at the start of each evaluation (the tree may differ).
     */
    private static final class PassMemo {

        /** No answer: a null verdict means the job fits. */
        private static final Object NOTHING = new Object();

        private record Key(String leaf, ResourceList demand) {
        }

        private final Map<Key, Object> verdicts = new HashMap<>();
        private final Map<Key, Boolean> guaranteed = new HashMap<>();

        /** The verdict for the leaf's jobs of this demand; null when they fit. */
        Verdict verdict(Node leaf, ResourceList demand, java.util.function.Supplier<Verdict> work) {
            return verdicts.computeIfAbsent(new Key(leaf.name(), demand), key -> orNothing(work.get())) instanceof Verdict verdict ? verdict : null;
        }

        boolean guaranteed(Node leaf, ResourceList demand, java.util.function.Supplier<Boolean> work) {
            return guaranteed.computeIfAbsent(new Key(leaf.name(), demand), key -> work.get());
        }

        void usageChanged() {
            verdicts.clear();
            guaranteed.clear();
        }

        void heldChanged() {
            verdicts.clear();
        }

        void forget() {
            usageChanged();
        }

        private static Object orNothing(Verdict verdict) {
            return verdict == null ? NOTHING : verdict;
        }
    }
}
