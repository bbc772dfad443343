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
    public static final String BEHIND_STRICT_HEAD = "BehindStrictHead";
    public static final String BACKOFF = "Backoff";

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

    /** How many of the starving jobs capacity is held for a waiting message names. */
    private static final int HOLDERS_NAMED = 3;

    /** A limit a job would break, for the waiting reason. */
    private record Shortfall(Node node, String resource, BigDecimal used, BigDecimal held, BigDecimal max, BigDecimal need,
                             Set<String> holders) {

        boolean causedByHeldCapacity() {
            return held.signum() > 0 && used.add(need).compareTo(max) <= 0;
        }

        /** What the message says before its numbers: the node and the resource. */
        String blocker() {
            return node.pathText() + ": " + resource + " ";
        }

        String message() {
            StringBuilder text = new StringBuilder(blocker())
                    .append(Quantities.format(resource, used)).append('/').append(Quantities.format(resource, max)).append(" in use");
            if (held.signum() > 0) {
                text.append(" and ").append(Quantities.format(resource, held)).append(" held for starving ")
                        .append(holders.stream().limit(HOLDERS_NAMED).collect(Collectors.joining(", ")));
                // Under overload thousands of jobs may starve: the message names a few.
                if (holders.size() > HOLDERS_NAMED) {
                    text.append(" and others");
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
        putWaiting(job.uid(), new Wait(job, leafOf(job), null, null, 0, null, null));
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
        return tree.leafFor(namespace).flatMap(leaf -> firstShortfall(tree.pathToRoot(leaf), demand.plus(ONE_JOB), Map.of(), Map.of(), Map.of()))
                .map(QuotaAdmission::neverMessage);
    }

    private static String neverMessage(Shortfall limit) {
        return limit.node().pathText() + ": " + limit.resource() + " max " + Quantities.format(limit.resource(), limit.max())
                + ", job needs " + Quantities.format(limit.resource(), limit.need()) + "; it can never be admitted under this tree";
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
        return tree.node(wait.leaf()).flatMap(leaf -> firstShortfall(tree.pathToRoot(leaf), wait.job().charge(), used, Map.of(), Map.of()))
                .map(Shortfall::message);
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
                quota.putWaiting(standing.job().uid(), new Wait(standing.job(), standing.leaf(), standing.waitingSince(),
                        standing.notBefore(), standing.giveBacks(), standing.reason(), standing.message()));
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
        Map<String, ResourceList> held = new HashMap<>();
        Map<String, Set<String>> holders = new HashMap<>();
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
            consider(cursor, now, held, holders, decisions);
            if (cursor.advance()) {
                cursor.rank(now);
                heads.add(cursor);
            } else if (cursor.settles) {
                settled.put(cursor.leaf.name(), new Settled(tree, used.get(cursor.leaf.name()), cursor.firstStarving));
            }
        }
    }

    /** Decides the head of one queue: admit it, or say why it waits. */
    private void consider(Cursor cursor, Instant now, Map<String, ResourceList> held, Map<String, Set<String>> holders,
                          List<QuotaDecision> decisions) {
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
            Optional<Shortfall> never = firstShortfall(cursor.path, charge, Map.of(), Map.of(), Map.of());
            if (never.isPresent()) {
                return new Verdict(QUOTA_NEVER_FITS, true, neverMessage(never.get()), null);
            }
            return firstShortfall(cursor.path, charge, used, held, holders)
                    .map(limit -> new Verdict(limit.causedByHeldCapacity() ? HELD_FOR_STARVING_JOB : QUOTA_EXCEEDED,
                            limit.node().name().equals(cursor.leaf.name()), limit.message(), limit.blocker()))
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
            Wait starving = current;
            ResourceList charge = current.job().charge();
            for (Node node : cursor.path) {
                held.merge(node.name(), charge, ResourceList::plus);
                holders.computeIfAbsent(node.name(), name -> new LinkedHashSet<>()).add(starving.job().ref());
            }
            memo.heldChanged();
        }
        report(current, queue, position, verdict.reason(), verdict.message(), verdict.blocker(), decisions);
        cursor.blockIfStrict(current, settings);
    }

    private void admit(Wait wait, Instant now, List<QuotaDecision> decisions) {
        removeWaiting(wait.job().uid());
        charge(wait.job(), wait.leaf(), used);
        memo.usageChanged();
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

    /** Whether a quota limit blocks the job: its own use, or capacity held for starving jobs, of which it is the same limit either way. */
    private static boolean isQuotaLimit(String reason) {
        return QUOTA_EXCEEDED.equals(reason) || HELD_FOR_STARVING_JOB.equals(reason);
    }

    // --- reclaim --------------------------------------------------------------------------------------------

    /** Finds one guaranteed job that borrowed capacity blocks and preempts just enough borrowers for it. */
    private boolean reclaimOnce(Instant now, List<QuotaDecision> decisions) {
        // Only jobs within their guarantee can reclaim; usually few, so they are sorted, not every waiting job.
        List<Wait> candidates = waiting.values().stream()
                .filter(wait -> QUOTA_EXCEEDED.equals(wait.reason()) || HELD_FOR_STARVING_JOB.equals(wait.reason()))
                .filter(wait -> isWithinGuarantee(tree.node(wait.leaf()).orElseThrow(), wait.job()))
                .sorted(Comparator.comparing(Wait::job, QUEUE_ORDER)).toList();
        for (Wait wait : candidates) {
            Node leaf = tree.node(wait.leaf()).orElseThrow();
            List<Node> path = tree.pathToRoot(leaf);
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
            memo.usageChanged();
            admit(wait, now, decisions);
            return true;
        }
        return false;
    }

    /** The same, remembered within a pass for every job of the leaf with the same demand. */
    private boolean isWithinGuarantee(Node leaf, QuotaJob job) {
        return tree.hasGuarantees() && memo.guaranteed(leaf, job.demand(), () -> isWithinGuarantee(tree.pathToRoot(leaf), job));
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
        Map<String, Set<String>> borrowing = borrowingBranches(path, onPath, job);
        if (borrowing.isEmpty()) {
            return List.of();
        }
        List<Admission> eligible = admitted.values().stream()
                .filter(admission -> borrowsThrough(admission, onPath, borrowing))
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
     * The children, off the waiting job's path, of the nodes on it where the job is short, that use more than
     * their min of a resource the job is short of there: by name, with those resources. Worked out once per
     * job from the tree, so that each admitted job is then only looked up.
     */
    private Map<String, Set<String>> borrowingBranches(List<Node> path, Set<String> onPath, QuotaJob job) {
        Map<String, Set<String>> branches = new HashMap<>();
        ResourceList charge = job.charge();
        for (Node ancestor : path) {
            ResourceList ancestorUsed = used.getOrDefault(ancestor.name(), ResourceList.empty());
            for (String child : ancestor.children()) {
                if (onPath.contains(child)) {
                    continue;
                }
                Node branch = tree.node(child).orElseThrow();
                ResourceList branchUsed = used.getOrDefault(child, ResourceList.empty());
                for (String resource : ancestor.max().names()) {
                    BigDecimal need = charge.amount(resource);
                    if (need.signum() > 0 && ancestorUsed.amount(resource).add(need).compareTo(ancestor.max().amount(resource)) > 0
                            && branchUsed.amount(resource).compareTo(branch.min().amount(resource)) > 0) {
                        branches.computeIfAbsent(child, name -> new HashSet<>()).add(resource);
                    }
                }
            }
        }
        return branches;
    }

    /** Whether the admitted job is under one of those branches and charged some of a resource it borrows. */
    private boolean borrowsThrough(Admission admission, Set<String> onPath, Map<String, Set<String>> borrowing) {
        for (String node : tree.node(admission.leaf()).orElseThrow().path()) {
            if (!onPath.contains(node)) {
                Set<String> resources = borrowing.get(node);
                return resources != null && resources.stream().anyMatch(resource -> admission.job().charge().amount(resource).signum() > 0);
            }
        }
        return false;
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
