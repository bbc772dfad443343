package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
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
 * {@code min}, then by priority and submission ({@link QueuePass}). When borrowed capacity blocks a job that is
 * within its guarantee, the borrowers' lowest-priority, newest jobs are preempted, just enough of them, if the
 * tree's reclaim policy allows ({@link Reclaims}).
 * <p>
 * This class is the core's entry point: what happens to jobs and the tree. What quota holds and the journal of
 * changes are {@link QuotaLedger}'s, the views {@link QuotaReport}'s. Not thread-safe: one service thread drives it,
 * one event at a time.
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

    private final QuotaSettings settings;
    private final QuotaLedger ledger;
    private final QueuePass pass;
    private final QuotaReport report;
    /** Whether changes leave their pass to {@link #flush}: one pass for a batch of them. */
    private boolean deferring;
    /** Whether a change made since the last pass owes one. */
    private boolean owed;

    /** @param tree the quota tree, or null before one is applied: every job then waits with {@code NoQuotaForNamespace} */
    public QuotaAdmission(QuotaTree tree, QuotaSettings settings) {
        this(tree, settings, true);
    }

    /**
     * @param reuse false for a core that works out afresh why each waiting job waits and which queue the fair order
     *              serves next: what tests compare the reuse with
     */
    QuotaAdmission(QuotaTree tree, QuotaSettings settings, boolean reuse) {
        this(tree, settings, reuse, false);
    }

    /**
     * @param admissionsOnly true for a core whose decisions to admit and preempt are all that is read of it, as the
     *                       start-time estimate's: a pass may stop once none of the jobs left can be admitted, leaving
     *                       them unaware of what a full pass would tell them ({@link PassEnd}), and no standing is
     *                       journalled, as none is persisted
     */
    private QuotaAdmission(QuotaTree tree, QuotaSettings settings, boolean reuse, boolean admissionsOnly) {
        this.settings = settings;
        this.ledger = new QuotaLedger(tree, admissionsOnly);
        this.pass = new QueuePass(ledger, settings, reuse, admissionsOnly);
        this.report = new QuotaReport(ledger);
    }

    /**
     * From now on, a change records that it owes a pass and returns only what it decides itself (a reclaim's victim
     * gone); {@link #flush} runs the one pass a batch of changes owes. A service that reads its inputs in batches
     * evaluates its waiting jobs once a batch rather than once an event: under overload, with thousands waiting, a pass
     * costs milliseconds, and a batch of a hundred events a hundred passes. The pass sees every change of the batch, as
     * a scheduling cycle does: what a job that ended in the batch frees goes by the queues' order to the jobs waiting
     * then, those that arrived in the batch included.
     */
    public void deferPasses() {
        deferring = true;
    }

    /** Whether a change owes a pass that {@link #flush} has not run yet. */
    public boolean owesPass() {
        return owed;
    }

    /** The pass the changes since the last one owe, when passes are deferred; nothing when none is owed. */
    public List<QuotaDecision> flush(Instant now) {
        if (!owed) {
            return List.of();
        }
        owed = false;
        return pass.evaluate(now);
    }

    private List<QuotaDecision> evaluate(Instant now) {
        if (deferring) {
            owed = true;
            return List.of();
        }
        return pass.evaluate(now);
    }

    /** A job enters its queue; submitting a job already known changes nothing. */
    public List<QuotaDecision> submit(QuotaJob submitted, Instant now) {
        if (ledger.admission(submitted.uid()) != null || ledger.wait(submitted.uid()) != null) {
            return List.of();
        }
        QuotaJob job = ledger.withSharedDemand(submitted);
        ledger.putWaiting(job.uid(), Wait.fresh(job, ledger.leafOf(job), null, 0));
        return evaluate(now);
    }

    /**
     * Why a job of this demand in this namespace could never be admitted under the tree in force (a node's max is
     * smaller than the demand); empty when it could, or when no tree or leaf says yet.
     */
    public Optional<String> neverFits(String namespace, ResourceList demand) {
        QuotaTree tree = ledger.tree();
        if (tree == null) {
            return Optional.empty();
        }
        return tree.leafFor(namespace).flatMap(leaf -> Shortfall.first(tree.pathToRoot(leaf), demand.plus(ONE_JOB), Map.of(), Holds.NONE))
                .map(Shortfall::neverMessage);
    }

    /**
     * A job finished or failed for good (its pods hold nothing), or a waiting job was deleted: its quota is released and
     * waiting jobs are re-evaluated. An admitted job that is deleted is {@linkplain #withdraw withdrawn} instead.
     */
    public List<QuotaDecision> release(String uid, Instant now) {
        List<QuotaDecision> decisions = new ArrayList<>();
        Admission admission = ledger.removeAdmitted(uid);
        if (admission != null) {
            ledger.uncharge(admission.job(), admission.leaf());
            if (admission.preempting()) {
                pass.reclaims().victimGone(uid, now, decisions);
            }
        } else if (ledger.removeWaiting(uid) == null) {
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
        Admission admission = ledger.admission(uid);
        if (admission == null) {
            return false;
        }
        if (!admission.withdrawn()) {
            ledger.putAdmitted(uid, admission.withdrawing());
        }
        return true;
    }

    /**
     * A preempted or withdrawn job has stopped on its member (its pods and reservations are gone): its quota is released;
     * a preempted one waits again at its original position, a withdrawn one leaves; a reclaimer no longer waiting for any
     * victim is admitted first. Nothing changes for a job that is not being stopped, so a repeat is harmless.
     */
    public List<QuotaDecision> stopped(String uid, Instant now) {
        Admission admission = ledger.admission(uid);
        if (admission == null || !admission.stopping()) {
            return List.of();
        }
        ledger.removeAdmitted(uid);
        ledger.uncharge(admission.job(), admission.leaf());
        if (!admission.withdrawn()) {
            ledger.putWaiting(uid, Wait.fresh(admission.job(), admission.leaf(), null, admission.giveBacks()));
        }
        List<QuotaDecision> decisions = new ArrayList<>();
        if (admission.preempting()) {
            pass.reclaims().victimGone(uid, now, decisions);
        }
        decisions.addAll(evaluate(now));
        return decisions;
    }

    /** Whether the job was preempted and has not stopped on its member yet. */
    public boolean isPreempting(String uid) {
        Admission admission = ledger.admission(uid);
        return admission != null && admission.preempting();
    }

    /**
     * Placement gave an admitted job back: its quota is released and it waits again at its original position,
     * not before a backoff that doubles with each give-back.
     */
    public List<QuotaDecision> giveBack(String uid, Instant now) {
        Admission admission = ledger.admission(uid);
        if (admission == null) {
            return List.of();
        }
        if (admission.stopping()) {
            // Given back before placement heard it was to stop: it holds nothing on any member, so it has stopped.
            return stopped(uid, now);
        }
        ledger.removeAdmitted(uid);
        ledger.uncharge(admission.job(), admission.leaf());
        int giveBacks = admission.giveBacks() + 1;
        Duration backoff = settings.giveBackBackoff().multipliedBy(1L << Math.min(giveBacks - 1, 10));
        ledger.putWaiting(uid, Wait.fresh(admission.job(), admission.leaf(), now.plus(backoff), giveBacks));
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
        for (Admission admission : ledger.admissions()) {
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
        ledger.replaceTree(newTree);
        pass.treeChanged();
        return evaluate(now);
    }

    /**
     * Removes the tree: every waiting job then waits with {@code NoQuotaForNamespace}.
     *
     * @throws TreeChangeRejectedException when jobs are admitted under it
     */
    public List<QuotaDecision> removeTree(Instant now) throws TreeChangeRejectedException {
        if (!ledger.admissions().isEmpty()) {
            throw new TreeChangeRejectedException("cannot delete the ElasticQuotaTree: " + ledger.admissions().size()
                    + " admitted job(s) are charged to it (" + ledger.admissions().stream().map(admission -> admission.job().ref())
                    .collect(Collectors.joining(", ")) + ")");
        }
        ledger.replaceTree(null);
        pass.treeChanged();
        return evaluate(now);
    }

    /** Re-evaluates waiting jobs as time passes: backoffs expire and the starvation guard starts to hold capacity. */
    public List<QuotaDecision> reevaluate(Instant now) {
        return evaluate(now);
    }

    /** What the node and its subtree use now, {@code kube-queue/max-jobs} counting admitted jobs. */
    public ResourceList usage(String node) {
        return ledger.usage(node);
    }

    /** The jobs waiting in a leaf's queue, head first. */
    public List<QuotaJob> queue(String leaf) {
        return ledger.queue(leaf);
    }

    /** Every leaf's queue in one pass over the waiting jobs, for metrics. */
    public List<QueueSummary> queueSummaries() {
        return report.queueSummaries();
    }

    /**
     * Each node's use of each resource its min or max names, root first, with the jobs waiting in its subtree:
     * what {@code kubectl muster queues} shows.
     */
    public List<QuotaUsageRow> usageReport() {
        return report.usageRows();
    }

    public boolean isAdmitted(String uid) {
        return ledger.admission(uid) != null;
    }

    public boolean isWaiting(String uid) {
        return ledger.wait(uid) != null;
    }

    /** The admitted jobs, in order of admission. */
    public List<QuotaJob> admittedJobs() {
        return ledger.admissions().stream().map(Admission::job).toList();
    }

    public Optional<QuotaTree> tree() {
        return Optional.ofNullable(ledger.tree());
    }

    /**
     * Why a waiting job waits, with the numbers of now: the reason told on the job keeps those of when it was told
     * (see {@link QueuePass}), which the views must not show as current. Empty for a job not waiting on a quota limit.
     */
    public Optional<String> currentMessage(String uid) {
        return report.currentMessage(uid);
    }

    /** The job's standing, if quota knows the job. */
    public Optional<JobStanding> standing(String uid) {
        Admission admission = ledger.admission(uid);
        if (admission != null) {
            return Optional.of(new JobStanding(admission.job(), admission.leaf(), admission.admittedAt(), null, null,
                    admission.giveBacks(), null, null, admission.preemptedBy(), List.of(), admission.withdrawn()));
        }
        Wait wait = ledger.wait(uid);
        return wait == null ? Optional.empty() : Optional.of(new JobStanding(wait.job(), wait.leaf(), null, wait.waitingSince(),
                wait.notBefore(), wait.giveBacks(), wait.reason(), wait.message(), null, wait.reclaiming(), false));
    }

    /**
     * The jobs whose standing changed since the last call: the service persists each one's new
     * {@link #standing} (or its removal, when there is none) together with the decisions.
     */
    public Set<String> drainChanges() {
        return ledger.drainChanges();
    }

    /**
     * A quota core in the state the standings describe, as persisted by a service that stopped. Usage is
     * recomputed from the admitted jobs; nothing is decided until the next event.
     *
     * @throws IllegalArgumentException when a standing names a leaf the tree does not have
     */
    public static QuotaAdmission restore(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings) {
        return restore(new QuotaAdmission(tree, settings), standings);
    }

    /**
     * The same, for a core whose admissions and preemptions are all that is read of it: it admits and preempts exactly as
     * the core restored by {@link #restore}, and may leave waiting jobs untold of what blocks them now.
     */
    static QuotaAdmission restoreToDecideAdmissionsOnly(QuotaTree tree, QuotaSettings settings, Collection<JobStanding> standings) {
        return restore(new QuotaAdmission(tree, settings, true, true), standings);
    }

    /** How many waiting jobs this core's passes have considered so far, and demands checked to stop a pass early. */
    long weighed() {
        return pass.weighed();
    }

    /** For tests: see {@link QueuePass#checkForAPassEndFrom}. */
    QuotaAdmission checkingForAPassEndFrom(int considered) {
        pass.checkForAPassEndFrom(considered);
        return this;
    }

    private static QuotaAdmission restore(QuotaAdmission quota, Collection<JobStanding> standings) {
        QuotaTree tree = quota.ledger.tree();
        QuotaLedger ledger = quota.ledger;
        standings.stream().sorted(Comparator.comparingLong(standing -> standing.job().sequence())).forEach(restored -> {
            JobStanding standing = restored.withJob(ledger.withSharedDemand(restored.job()));
            if (standing.leaf() != null && (tree == null || tree.node(standing.leaf()).isEmpty())) {
                throw new IllegalArgumentException("job " + standing.job().ref() + " stands in quota leaf \"" + standing.leaf()
                        + "\", which the tree does not have");
            }
            if (standing.admitted()) {
                ledger.putAdmitted(standing.job().uid(), new Admission(standing.job(), standing.leaf(), standing.admittedAt(),
                        standing.giveBacks(), standing.preemptedBy(), standing.withdrawn()));
                ledger.charge(standing.job(), standing.leaf());
            } else {
                ledger.putWaiting(standing.job().uid(), new Wait(standing.job(), standing.leaf(), standing.waitingSince(),
                        standing.notBefore(), standing.giveBacks(), standing.reason(), standing.message(), standing.reclaiming()));
            }
        });
        // Restoring is not a change: the standings are already persisted.
        ledger.drainChanges();
        return quota;
    }
}
