package dev.muster.queue.core.quota;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.PriorityQueue;
import java.util.function.Supplier;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.PassMemo.Verdict;
import dev.muster.queue.core.quota.QuotaDecision.Admitted;
import dev.muster.queue.core.quota.QuotaDecision.Waiting;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * An evaluation of the waiting jobs: which are admitted, in what order, and why the others wait. Across queues,
 * jobs that have waited longer than the starvation age go first and hold capacity for themselves, then jobs within
 * their nodes' guaranteed {@code min}, then by priority and submission; within a queue a head that does not fit does
 * not block the jobs behind it unless the queue is strict FIFO. When the tree allows it, each pass that leaves a
 * guaranteed job blocked by borrowers is followed by a reclaim ({@link Reclaims}) and another pass.
 */
final class QueuePass {

    private final QuotaLedger ledger;
    private final QuotaSettings settings;
    private final Reclaims reclaims;
    /** What one evaluation has already worked out, for the many waiting jobs that ask the same. */
    private final PassMemo memo;
    /** The nodes' shares of what they borrow, while the pass orders queues fairly; null otherwise. */
    private DominantShares shares;
    /**
     * The queue the shares alone chose last, and the shares' {@link DominantShares#changes} then: while they stay the
     * same it goes on winning as long as it has a head, so that the tournament is not played again for each of its jobs.
     */
    private Cursor chosenByShares;
    private int chosenAt;
    private final boolean reuse;
    /** Whether the core only has to say whom it admits and preempts: a pass may then stop once none left can be admitted. */
    private final boolean admissionsOnly;
    /** When this pass may stop; null when it walks every queue to its end. */
    private PassEnd passEnd;
    /** When a pass last walked every queue to its end, telling each waiting job why it waits; null before the first. */
    private Instant everyJobToldAt;
    /**
     * After how many jobs considered a pass first checks whether it may stop, then at each doubling (see {@link PassEnd}):
     * a check weighs each queue left's least demands, a few per queue, about as much as considering a few jobs.
     */
    private int firstPassEndCheck = 4;
    private long weighed;
    /** A job waiting since this instant or before starves in the pass under way: worked out once, as every head is ranked by it. */
    private Instant starvingSince;

    /** @param reuse false to work every verdict and every fair-order choice out afresh: what the reuse must decide exactly as */
    QueuePass(QuotaLedger ledger, QuotaSettings settings, boolean reuse) {
        this(ledger, settings, reuse, false);
    }

    /** @param admissionsOnly true for a core whose waiting jobs need not be told why they wait, only admitted (see {@link PassEnd}) */
    QueuePass(QuotaLedger ledger, QuotaSettings settings, boolean reuse, boolean admissionsOnly) {
        this.ledger = ledger;
        this.settings = settings;
        this.memo = new PassMemo(reuse);
        this.reuse = reuse;
        this.admissionsOnly = admissionsOnly;
        this.reclaims = new Reclaims(ledger, this, reuse);
    }

    /** For tests: a pass of a core that decides admissions only checks whether it may stop after this many jobs, 0 after each. */
    void checkForAPassEndFrom(int considered) {
        firstPassEndCheck = considered;
    }

    /**
     * How many waiting jobs the passes have considered so far, and demands their ends checked: what an estimate's replay
     * budgets (a queue of many distinct demands makes each check long).
     */
    long weighed() {
        return weighed;
    }

    Reclaims reclaims() {
        return reclaims;
    }

    List<QuotaDecision> evaluate(Instant now) {
        List<QuotaDecision> decisions = new ArrayList<>();
        memo.forget();
        // Each reclaim admits one guaranteed job; the loop ends when a pass reclaims nothing.
        do {
            admitInOrder(now, decisions);
        } while (reclaimed(decisions));
        return decisions;
    }

    /** Whether a reclaim was started: for a job within its guarantee first, then, when the tree asks for it, for fair share. */
    private boolean reclaimed(List<QuotaDecision> decisions) {
        QuotaTree tree = ledger.tree();
        if (tree == null) {
            return false;
        }
        if (tree.reclaim() == ReclaimPolicy.PREEMPT && reclaims.reclaimOnce(decisions)) {
            return true;
        }
        return tree.fairSharing().preempts() && reclaims.reclaimFairShareOnce(decisions);
    }

    private void admitInOrder(Instant now, List<QuotaDecision> decisions) {
        QuotaTree tree = ledger.tree();
        starvingSince = now.minus(settings.starvationAge());
        for (QuotaJob job : ledger.unbound()) {
            report(ledger.wait(job.uid()), null, 0, QuotaAdmission.NO_QUOTA_FOR_NAMESPACE, "namespace \"" + job.namespace()
                    + "\" is bound to no quota leaf of the ElasticQuotaTree", decisions);
        }
        // What stopped victims free is their reclaimers': held before any queue is considered, whichever the pass ranks
        // first, so that a victim is not admitted again only to be preempted again by the same reclaimer.
        Holds holds = new Holds();
        for (Wait reclaimer : ledger.reclaimers()) {
            if (reclaimer.leaf() != null) {
                holds.hold(tree.pathToRoot(tree.node(reclaimer.leaf()).orElseThrow()), reclaimer.job(), ledger.chargeOf(reclaimer.job()), false);
            }
        }
        memo.newHolds();
        shares = tree != null && tree.fairSharing().enabled() ? new DominantShares(tree, ledger.used()) : null;
        chosenByShares = null;
        PriorityQueue<Cursor> heads = new PriorityQueue<>();
        for (Map.Entry<String, NavigableMap<QuotaJob, Wait>> queue : ledger.queues().entrySet()) {
            if (queue.getKey().equals(QuotaLedger.UNBOUND) || queue.getValue().isEmpty()) {
                continue;
            }
            // Under fair sharing a settled queue is still walked: its head, refused as it is, takes part in the tournaments
            // of the fair order, where siblings of equal share are told apart by their best heads, and so decides which
            // of the other queues is served first.
            Settled before = shares == null ? ledger.settled(queue.getKey()) : null;
            if (before != null && before.holds(tree, ledger.used().get(queue.getKey()), now)) {
                continue;
            }
            Cursor cursor = new Cursor(tree.node(queue.getKey()).orElseThrow(), queue.getValue());
            cursor.rank();
            heads.add(cursor);
        }
        passEnd = mayStopEarly(tree, now) ? new PassEnd(ledger, reclaims, settings.strictFifoLeaves(), firstPassEndCheck) : null;
        boolean stopped = false;
        while (!heads.isEmpty() && !stopped) {
            Cursor cursor = next(heads);
            consider(cursor, now, holds, decisions);
            if (cursor.advance()) {
                cursor.rank();
                heads.add(cursor);
            } else if (cursor.settles) {
                ledger.settle(cursor.leaf.name(), new Settled(tree, ledger.used().get(cursor.leaf.name()), cursor.firstStarving));
            }
            stopped = passEnd != null && passEnd.reached(() -> heads.stream().map(left -> left.path).iterator(), ledger.used(), holds, now)
                    && toldWhyTheyWait(heads, now, holds, decisions);
        }
        if (passEnd != null) {
            weighed += passEnd.demandsWeighed();
        }
        if (!stopped) {
            everyJobToldAt = now;
        }
    }

    /**
     * Whether this pass may stop once none of the jobs left can be admitted: always for a core that only decides
     * admissions; for the service's core while the last pass that told every job why it waits is recent enough. Never
     * under fair-sharing preemption, which reads which limit each job was told.
     */
    private boolean mayStopEarly(QuotaTree tree, Instant now) {
        if (!reuse || tree == null || tree.fairSharing().preempts()) {
            return false;
        }
        return admissionsOnly || everyJobToldAt != null && !settings.reasonRefresh().isZero()
                && now.isBefore(everyJobToldAt.plus(settings.reasonRefresh()));
    }

    /**
     * Where a pass stops early, tells each job of the queues left that was never told why it waits what a full pass would
     * tell it, that a quota limit refuses it (with the numbers of where the pass stopped), and starts its wait: a user
     * learns at once why a new job waits. False, telling none, should one fit after all; the pass then goes on.
     */
    private boolean toldWhyTheyWait(Iterable<Cursor> left, Instant now, Holds holds, List<QuotaDecision> decisions) {
        List<Wait> untold = new ArrayList<>();
        List<Verdict> verdicts = new ArrayList<>();
        List<Cursor> queues = new ArrayList<>();
        for (Cursor cursor : left) {
            Map<ResourceList, Verdict> byDemand = new java.util.IdentityHashMap<>();
            for (String uid : ledger.demandsWaiting(cursor.leaf.name()).untold()) {
                Wait wait = ledger.wait(uid);
                Verdict verdict = byDemand.computeIfAbsent(wait.job().demand(),
                        demand -> memo.fresh(cursor.path, wait.job(), ledger.chargeOf(demand), ledger.used(), holds));
                if (verdict == null || verdict.neverFits()) {
                    return false;
                }
                untold.add(wait);
                verdicts.add(verdict);
                queues.add(cursor);
            }
        }
        for (int i = 0; i < untold.size(); i++) {
            Wait waiting = untold.get(i).since(now);
            ledger.putWaiting(waiting.job().uid(), waiting);
            report(waiting, queues.get(i).leaf.queue(), queues.get(i).positionOf(waiting.job()), verdicts.get(i), decisions);
        }
        return true;
    }

    /**
     * The queue whose head is decided next: starving heads, then heads within their guarantee, by their own order;
     * then, under fair sharing, the borrowers by the tournament of their nodes' shares, else by their own order.
     */
    private Cursor next(PriorityQueue<Cursor> heads) {
        Cursor first = heads.peek();
        if (shares == null || first.starving || first.guaranteed || heads.size() == 1) {
            return heads.poll();
        }
        if (chosenByShares != null && chosenAt == shares.changes() && heads.remove(chosenByShares)) {
            return chosenByShares;
        }
        FairShareTournament.Outcome<Cursor> outcome = FairShareTournament.play(heads, cursor -> cursor.leaf, ledger.tree(), shares,
                Comparator.naturalOrder());
        heads.remove(outcome.winner());
        chosenByShares = reuse && outcome.bySharesAlone() ? outcome.winner() : null;
        chosenAt = shares.changes();
        return outcome.winner();
    }

    /** Decides the head of one queue: admit it, or say why it waits. */
    private void consider(Cursor cursor, Instant now, Holds holds, List<QuotaDecision> decisions) {
        weighed++;
        Wait wait = cursor.head();
        int position = cursor.position();
        String queue = cursor.leaf.queue();
        if (cursor.blockedBy != null) {
            cursor.settles = false;
            report(wait, queue, position, QuotaAdmission.BEHIND_STRICT_HEAD, "behind " + cursor.blockedBy
                    + " at the head of strict FIFO queue " + queue, decisions);
            return;
        }
        if (wait.notBefore() != null && now.isBefore(wait.notBefore())) {
            cursor.settles = false;
            report(wait, queue, position, QuotaAdmission.BACKOFF, backoffMessage(wait.notBefore()), decisions);
            cursor.blockIfStrict(wait);
            return;
        }
        if (!wait.reclaiming().isEmpty()) {
            considerReclaimer(cursor, wait, now, holds, decisions);
            return;
        }
        // One answer per leaf and demand: whether the job can never fit the tree, else whether it fits now. A job told of
        // the same limit before is told nothing new, so for it the limit is enough; any other needs the numbers of now.
        Verdict verdict = memo.verdict(cursor.path, wait.job(), ledger.chargeOf(wait.job()), ledger.used(), holds);
        if (verdict != null && verdict.numbersOutOfDate() && !toldOf(wait, verdict.blocker())) {
            verdict = memo.fresh(cursor.path, wait.job(), ledger.chargeOf(wait.job()), ledger.used(), holds);
        }
        if (verdict != null && verdict.neverFits()) {
            report(wait, queue, position, verdict, decisions);
            return;
        }
        if (verdict != null && passEnd != null) {
            passEnd.refused(cursor.leaf.name(), wait.job().demand());
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
            ledger.putWaiting(current.job().uid(), current);
        }
        cursor.settles &= verdict.atLeaf();
        if (cursor.settles) {
            // Only a queue the pass leaves settled keeps when its first job starts to starve.
            Instant starvesAt = current.waitingSince().plus(settings.starvationAge());
            cursor.firstStarving = cursor.firstStarving == null || starvesAt.isBefore(cursor.firstStarving) ? starvesAt : cursor.firstStarving;
        }
        if (isStarving(current)) {
            cursor.settles = false;
            holds.hold(cursor.path, current.job(), ledger.chargeOf(current.job()), true);
        }
        report(current, queue, position, verdict, decisions);
        cursor.blockIfStrict(current);
    }

    /**
     * A job waiting for its victims to stop, weighed without what is held for it: admitted if it fits now (capacity
     * freed elsewhere), else it keeps its hold and is told it still reclaims.
     */
    private void considerReclaimer(Cursor cursor, Wait wait, Instant now, Holds holds, List<QuotaDecision> decisions) {
        cursor.settles = false;
        holds.release(cursor.path, wait.job(), ledger.chargeOf(wait.job()));
        if (Shortfall.first(cursor.path, ledger.chargeOf(wait.job()), ledger.used(), holds).isEmpty()) {
            admit(wait, now, decisions);
            cursor.removeHead();
            return;
        }
        holds.hold(cursor.path, wait.job(), ledger.chargeOf(wait.job()), false);
        report(wait, cursor.leaf.queue(), cursor.position(), QuotaAdmission.RECLAIMING, reclaims.message(wait), decisions);
        cursor.blockIfStrict(wait);
    }

    /** Admits the waiting job at its leaf: charged there and at every ancestor. */
    void admit(Wait wait, Instant now, List<QuotaDecision> decisions) {
        ledger.removeWaiting(wait.job().uid());
        ledger.charge(wait.job(), wait.leaf());
        memo.usageChanged();
        if (shares != null) {
            shares.forget();
        }
        ledger.putAdmitted(wait.job().uid(), new Admission(wait.job(), wait.leaf(), now, wait.giveBacks(), null, false));
        decisions.add(new Admitted(wait.job(), wait.leaf()));
    }

    static String backoffMessage(Instant notBefore) {
        return "given back by placement; may be admitted again from " + notBefore;
    }

    /** The tree changed: the next pass tells every waiting job why it waits. */
    void treeChanged() {
        everyJobToldAt = null;
    }

    /** Whether the job has waited the starvation age by the time of this pass. */
    private boolean isStarving(Wait wait) {
        return wait.waitingSince() != null && !wait.waitingSince().isAfter(starvingSince);
    }

    /** Says why a job waits, once per change of reason or message. */
    void report(Wait wait, String queue, int position, String reason, String message, List<QuotaDecision> decisions) {
        report(wait, queue, position, reason, () -> message, null, decisions);
    }

    private void report(Wait wait, String queue, int position, Verdict verdict, List<QuotaDecision> decisions) {
        if (verdict.numbersOutOfDate()) {
            // Only for a job told of this limit before (see consider): nothing new to tell.
            return;
        }
        report(wait, queue, position, verdict.reason(), verdict::message, verdict.blocker(), decisions);
    }

    /**
     * Says why a job waits, once per change of what blocks it. Each admission or release moves the numbers in
     * the messages of every job a quota node blocks, and near the limit tips them between {@code QuotaExceeded}
     * and {@code HeldForStarvingJob}: said again each time, a deep queue made each job about a thousand status
     * updates under overload. So while a quota limit blocks a job, it is told again only when the limit's node
     * or resource changes; the numbers and the reason are those of when it was last told. The message is worded only
     * when the job is told, or its reason differs from the last: under overload most are told nothing new.
     */
    private void report(Wait wait, String queue, int position, String reason, Supplier<String> message, String blocker,
                        List<QuotaDecision> decisions) {
        if (toldOf(wait, blocker)) {
            return;
        }
        String text = message.get();
        if (reason.equals(wait.reason()) && text.equals(wait.message())) {
            return;
        }
        ledger.putWaiting(wait.job().uid(), wait.reported(reason, text));
        decisions.add(new Waiting(wait.job(), queue, position, reason, text));
    }

    /** Whether the job was last told that this quota limit blocks it ({@code blocker}: the limit's node and resource). */
    private static boolean toldOf(Wait wait, String blocker) {
        return blocker != null && isQuotaLimit(wait.reason()) && wait.message() != null && wait.message().startsWith(blocker);
    }

    /** Whether a quota limit blocks the job: its own use, or capacity held for other jobs, of which it is the same limit either way. */
    static boolean isQuotaLimit(String reason) {
        return QuotaAdmission.QUOTA_EXCEEDED.equals(reason) || QuotaAdmission.HELD_FOR_STARVING_JOB.equals(reason)
                || QuotaAdmission.HELD_FOR_RECLAIM.equals(reason);
    }

    /** Whether the job is within its guarantee, remembered within a pass for every job of the leaf with the same demand. */
    boolean isWithinGuarantee(Node leaf, QuotaJob job) {
        QuotaTree tree = ledger.tree();
        if (!tree.hasGuarantees()) {
            return false;
        }
        // Under overload most leaves use nearly all their min: one look at the leaf then answers for each of its demands.
        // Both answers are remembered: this runs for every head the pass ranks.
        if (reuse && !memo.someWithinGuarantee(leaf, () -> !new Reclaim(tree, ledger.used())
                .noJobWithinGuarantee(tree.pathToRoot(leaf), ledger.demandsWaiting(leaf.name())::leastAsked))) {
            return false;
        }
        return memo.guaranteed(leaf, job.demand(), () -> new Reclaim(tree, ledger.used()).isWithinGuarantee(tree.pathToRoot(leaf), job));
    }

    /**
     * Walks one leaf's queue in order during an evaluation; ranked against the other queues' heads by
     * starvation, then guarantee, then the head's own order.
     */
    private final class Cursor implements Comparable<Cursor> {

        private final Node leaf;
        private final List<Node> path;
        /**
         * The queue itself: a pass changes only the waits of the heads it decides, so the jobs ahead are as the pass found
         * them. Walked in place rather than copied, so that a pass that stops early costs nothing for the jobs it leaves.
         */
        private final NavigableMap<QuotaJob, Wait> queue;
        private java.util.Iterator<Wait> rest;
        private int index;
        private Wait head;
        private int removed;
        private String blockedBy;
        private boolean starving;
        private boolean guaranteed;
        /** The head's place in {@link QuotaLedger#QUEUE_ORDER}, kept here: every step of the pass compares heads. */
        private int priority;
        private Instant submittedAt;
        private long sequence;
        /** Whether the pass leaves the queue {@link Settled}, so far. */
        private boolean settles = true;
        private Instant firstStarving;
        private ResourceList guaranteeAnsweredFor;
        private int guaranteeAnsweredAt;
        private boolean guaranteeAnswer;

        Cursor(Node leaf, NavigableMap<QuotaJob, Wait> queue) {
            this.leaf = leaf;
            this.path = ledger.tree().pathToRoot(leaf);
            this.queue = queue;
            this.rest = queue.values().iterator();
        }

        /**
         * The head as it stood when the cursor was last ranked: a pass changes the waits it decides, and only those, so
         * nothing changes a head's between its ranking and its turn.
         */
        Wait head() {
            return head;
        }

        /** 1-based position of the head in its queue, counting only jobs still waiting. */
        int position() {
            return index - removed + 1;
        }

        /**
         * 1-based position in the queue of a job the walk has not reached, counting only jobs still waiting. Counted from
         * the tail, as a map's part counts by walking it: the jobs a pass tells here are mostly new, near the tail of queues
         * thousands long under overload.
         */
        int positionOf(QuotaJob job) {
            return queue.size() - queue.tailMap(job, true).size() + 1;
        }

        /** The head was admitted: it left the queue, and the walk goes on after it. */
        void removeHead() {
            removed++;
            rest = queue.tailMap(head.job(), false).values().iterator();
        }

        boolean advance() {
            index++;
            return rest.hasNext();
        }

        void rank() {
            head = rest.next();
            starving = isStarving(head);
            // Heads in a row often share a demand: the answer is kept for it while usage stays, as the memo keeps it.
            ResourceList demand = head.job().demand();
            if (!reuse || demand != guaranteeAnsweredFor || guaranteeAnsweredAt != memo.usageVersion()) {
                guaranteeAnswer = isWithinGuarantee(leaf, head.job());
                guaranteeAnsweredFor = demand;
                guaranteeAnsweredAt = memo.usageVersion();
            }
            guaranteed = guaranteeAnswer;
            priority = head.job().priority();
            submittedAt = head.job().submittedAt();
            sequence = head.job().sequence();
        }

        void blockIfStrict(Wait head) {
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
}
