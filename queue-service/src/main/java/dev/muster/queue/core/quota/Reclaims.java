package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaDecision.Preempted;
import dev.muster.queue.core.quota.QuotaDecision.Waiting;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Carries reclaims out, in two phases: borrowers are preempted for a guaranteed job and stay charged until they have
 * stopped on their members; the reclaimer waits for them, and takes the capacity they free before anyone else. Which
 * borrowers may be taken is {@link Reclaim}'s rule.
 */
final class Reclaims {

    private final QuotaLedger ledger;
    private final QueuePass pass;
    /**
     * False to look through every waiting job for the jobs that may reclaim, and through every admitted job for their
     * victims: what tests compare the searches by leaf and demand, and by leaf, with.
     */
    private final boolean byLeafAndDemand;
    /** By leaf, which demands of its waiting jobs were within their guarantee when last weighed, kept while nothing they depend on changes. */
    private final Map<String, WithinGuarantee> withinByLeaf = new HashMap<>();
    /**
     * The leaves and demands whose jobs found no victims while {@link QuotaLedger#reclaimInputs} stood at
     * {@link #noVictimsAt}: under overload most evaluations follow an arrival that admits nothing, and each reclaim would
     * search the thousand admitted jobs again for the same guaranteed jobs, in vain.
     */
    private final Set<List<Object>> noVictims = new java.util.HashSet<>();
    private long noVictimsAt = -1;

    /**
     * The demands of a leaf's waiting jobs within their guarantee, and what decided it: the tree, the leaf's demands, and
     * what each node of its path below the root uses within guarantees of each resource its min names. Under overload
     * each event changes one leaf's use, so the others' answers hold.
     */
    private record WithinGuarantee(QuotaTree tree, QueueDemands demands, int demandsVersion, long reclaimInputs,
                                   List<BigDecimal> guaranteedUses, Set<ResourceList> within) {
    }

    Reclaims(QuotaLedger ledger, QueuePass pass, boolean byLeafAndDemand) {
        this.ledger = ledger;
        this.pass = pass;
        this.byLeafAndDemand = byLeafAndDemand;
    }

    /** Finds one guaranteed job that borrowed capacity blocks and preempts just enough borrowers for it; false when none. */
    boolean reclaimOnce(List<QuotaDecision> decisions) {
        QuotaTree tree = ledger.tree();
        if (!tree.hasGuarantees()) {
            // No job is within a guarantee no node gives: nothing to look for among the waiting jobs.
            return false;
        }
        // Victims are chosen against what will be used once the reclaims under way are complete: the capacity free now
        // may already be a waiting reclaimer's (beside its victims' own), and a second reclaimer counting on it too
        // would preempt too few, wait in vain, and see a victim of its own admitted again only to preempt it again.
        Map<String, ResourceList> withReclaimers = usedWithReclaimers(tree);
        // A job is within its guarantee only beside the reclaimers already waiting for their victims: each alone may fit
        // under the min, all of them together not, and the one admitted last would then borrow, to be reclaimed from in
        // turn by the team it took back from, and so on for ever (the fault storm found two teams doing that).
        Reclaim besideReclaimers = new Reclaim(tree, withReclaimers);
        Reclaim reclaim = null;
        // The victims depend on the job's leaf and demand only: one that found none answers for the rest of its kind.
        Set<List<Object>> tried = new java.util.HashSet<>();
        if (noVictimsAt != ledger.reclaimInputs()) {
            noVictims.clear();
            noVictimsAt = ledger.reclaimInputs();
        }
        for (Wait wait : byLeafAndDemand ? candidates(tree, besideReclaimers) : everyCandidate(tree, besideReclaimers)) {
            List<Object> kind = List.of(wait.leaf(), wait.job().demand());
            if (!tried.add(kind) || byLeafAndDemand && noVictims.contains(kind)) {
                continue;
            }
            if (reclaim == null) {
                reclaim = new Reclaim(tree, withoutJobsBeingPreempted(tree, withReclaimers));
            }
            Node leaf = tree.node(wait.leaf()).orElseThrow();
            List<Admission> victims = byLeafAndDemand ? reclaim.victimsFor(tree.pathToRoot(leaf), wait.job(), ledger.admittedByLeaf())
                    : reclaim.victimsFor(tree.pathToRoot(leaf), wait.job(), ledger.admissions());
            if (!victims.isEmpty()) {
                carryOut(wait, leaf, victims, countedOn(tree.pathToRoot(leaf), wait.job(), victims), ", which is within the guaranteed min of "
                        + leaf.pathText(), decisions);
                return true;
            }
            noVictims.add(kind);
        }
        return false;
    }

    /**
     * The jobs that may reclaim, in queue order: of each leaf and demand within its guarantee, the first job a quota limit
     * refuses that reclaims nothing yet. Under overload thousands of jobs wait, in few shapes per leaf, and most leaves use
     * nearly all their min: the leaves and demands are weighed rather than every waiting job, and only the queues that hold
     * one within its guarantee are walked.
     */
    private List<Wait> candidates(QuotaTree tree, Reclaim guarantees) {
        List<Wait> candidates = new ArrayList<>();
        for (Map.Entry<String, java.util.NavigableMap<QuotaJob, Wait>> queue : ledger.queues().entrySet()) {
            if (queue.getKey().equals(QuotaLedger.UNBOUND)) {
                continue;
            }
            List<Node> path = tree.pathToRoot(tree.node(queue.getKey()).orElseThrow());
            QueueDemands waiting = ledger.demandsWaiting(queue.getKey());
            Set<ResourceList> withinNow = within(tree, queue.getKey(), path, waiting, guarantees);
            if (withinNow.isEmpty()) {
                continue;
            }
            // The jobs of one demand share its instance: found by identity, not by hashing the demand for each job.
            Set<ResourceList> within = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            within.addAll(withinNow);
            for (Wait wait : queue.getValue().values()) {
                if (within.isEmpty()) {
                    break;
                }
                if (wait.reclaiming().isEmpty() && QueuePass.isQuotaLimit(wait.reason()) && within.remove(wait.job().demand())) {
                    candidates.add(wait);
                }
            }
        }
        candidates.sort(Comparator.comparing(Wait::job, QuotaLedger.QUEUE_ORDER));
        return candidates;
    }

    /** The demands of the leaf's waiting jobs within their guarantee, by instance (the jobs of one demand share it). */
    private Set<ResourceList> within(QuotaTree tree, String leaf, List<Node> path, QueueDemands waiting, Reclaim guarantees) {
        WithinGuarantee known = withinByLeaf.get(leaf);
        boolean sameDemands = known != null && known.tree() == tree && known.demands() == waiting && known.demandsVersion() == waiting.version();
        // What the guarantees depend on is usage and the reclaimers: while neither changed, the uses need no summing up.
        if (sameDemands && known.reclaimInputs() == ledger.reclaimInputs()) {
            return known.within();
        }
        List<BigDecimal> uses = guarantees.guaranteedUses(path);
        if (sameDemands && known.guaranteedUses().equals(uses)) {
            withinByLeaf.put(leaf, new WithinGuarantee(tree, waiting, waiting.version(), ledger.reclaimInputs(), uses, known.within()));
            return known.within();
        }
        Set<ResourceList> within = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        if (!guarantees.noJobWithinGuarantee(path, waiting::leastAsked)) {
            for (ResourceList demand : waiting.demands()) {
                if (guarantees.isWithinGuarantee(path, demand)) {
                    within.add(demand);
                }
            }
        }
        withinByLeaf.put(leaf, new WithinGuarantee(tree, waiting, waiting.version(), ledger.reclaimInputs(), uses, within));
        return within;
    }

    /** The same jobs and more, found by looking through every waiting job: each job a quota limit refuses within its guarantee. */
    private List<Wait> everyCandidate(QuotaTree tree, Reclaim guarantees) {
        return ledger.waits().stream()
                .filter(wait -> wait.reclaiming().isEmpty() && QueuePass.isQuotaLimit(wait.reason())
                        && guarantees.isWithinGuarantee(tree.pathToRoot(tree.node(wait.leaf()).orElseThrow()), wait.job()))
                .sorted(Comparator.comparing(Wait::job, QuotaLedger.QUEUE_ORDER)).toList();
    }

    /**
     * Under fair-sharing preemption, finds one borrower's job that does not fit and preempts just enough borrowers of
     * sibling subtrees for it, as {@link FairShareReclaim} allows; false when none. The job of the leaf of lowest share
     * is tried first, and one answer is kept per leaf and demand.
     */
    boolean reclaimFairShareOnce(List<QuotaDecision> decisions) {
        QuotaTree tree = ledger.tree();
        Map<String, ResourceList> used = usedWithReclaimers(tree);
        FairShareReclaim reclaim = new FairShareReclaim(tree, used);
        DominantShares shares = new DominantShares(tree, used);
        Reclaim guarantees = new Reclaim(tree, used);
        List<Wait> candidates = ledger.waits().stream()
                .filter(wait -> wait.reclaiming().isEmpty() && QuotaAdmission.QUOTA_EXCEEDED.equals(wait.reason()) && wait.leaf() != null)
                .sorted(Comparator.comparing((Wait wait) -> shares.weightedShare(tree.node(wait.leaf()).orElseThrow()), DominantShares::compare)
                        .thenComparing(Wait::job, QuotaLedger.QUEUE_ORDER)).toList();
        Set<List<Object>> tried = new java.util.HashSet<>();
        for (Wait wait : candidates) {
            Node leaf = tree.node(wait.leaf()).orElseThrow();
            List<Node> path = tree.pathToRoot(leaf);
            if (!tried.add(List.of(wait.leaf(), wait.job().demand())) || guarantees.isWithinGuarantee(path, wait.job())) {
                continue;
            }
            List<Admission> victims = reclaim.victimsFor(path, wait.job(), ledger.admissions());
            if (!victims.isEmpty()) {
                carryOut(wait, leaf, victims, List.of(), ", whose share of what " + leaf.pathText() + " borrows is below theirs (fair-sharing preemption)",
                        decisions);
                return true;
            }
        }
        return false;
    }

    /**
     * Preempts the victims for the waiting job, which then waits for them, and for the jobs being stopped already that it
     * counts on, to stop, told that it reclaims.
     */
    private void carryOut(Wait wait, Node leaf, List<Admission> victims, List<String> alsoWaitsFor, String why, List<QuotaDecision> decisions) {
        for (Admission victim : victims) {
            ledger.putAdmitted(victim.job().uid(), victim.preemptedFor(wait.job().uid()));
            decisions.add(new Preempted(victim.job(), wait.job(), "preempted to return borrowed capacity to " + wait.job().ref() + why));
        }
        // What this evaluation said of the reclaimer so far is superseded: it is told that it reclaims.
        decisions.removeIf(decision -> decision instanceof Waiting earlier && earlier.job().uid().equals(wait.job().uid()));
        List<String> waitsFor = new ArrayList<>(alsoWaitsFor);
        victims.forEach(victim -> waitsFor.add(victim.job().uid()));
        Wait reclaimer = wait.reclaiming(waitsFor);
        ledger.putWaiting(reclaimer.job().uid(), reclaimer);
        ledger.unsettle(leaf.name());
        pass.report(reclaimer, leaf.queue(), ledger.queue(leaf.name()).indexOf(reclaimer.job()) + 1, QuotaAdmission.RECLAIMING,
                message(reclaimer), decisions);
    }

    /** What is charged, plus what each job reclaiming capacity will be charged once its victims have stopped. */
    private Map<String, ResourceList> usedWithReclaimers(QuotaTree tree) {
        Map<String, ResourceList> usage = new HashMap<>(ledger.used());
        for (Wait wait : ledger.reclaimers()) {
            tree.node(wait.leaf() == null ? "" : wait.leaf()).ifPresent(leaf -> tree.pathToRoot(leaf)
                    .forEach(node -> usage.merge(node.name(), wait.job().charge(), ResourceList::plus)));
        }
        return usage;
    }

    /**
     * The jobs already being preempted, for this reclaimer or another, that the job counts on besides its own victims:
     * none when it fits once its own victims have stopped, else those under a node of its path where it is short now.
     * Victims are chosen against what will be used once every reclaim is complete, so a reclaimer may need what others'
     * victims free beyond what their reclaimers take; had it not waited for them, it would lose its hold once its own
     * victims stopped, and see one of them admitted again into capacity still short, only to preempt it again.
     */
    private List<String> countedOn(List<Node> path, QuotaJob job, List<Admission> victims) {
        Map<String, ResourceList> onceVictimsStop = new HashMap<>(ledger.used());
        victims.forEach(victim -> QuotaLedger.uncharge(ledger.tree(), victim.job(), victim.leaf(), onceVictimsStop));
        if (Shortfall.fitsUnderMax(path, job.charge(), onceVictimsStop)) {
            return List.of();
        }
        Set<String> shortAt = path.stream().filter(node -> !Shortfall.fitsUnderMax(List.of(node), job.charge(), onceVictimsStop))
                .map(Node::name).collect(Collectors.toSet());
        // In the order of submission, which a restart keeps, as it does not keep the order they were preempted in.
        return ledger.beingPreempted().stream()
                .filter(admission -> ledger.tree().node(admission.leaf()).orElseThrow().path().stream().anyMatch(shortAt::contains))
                .sorted(Comparator.comparingLong(admission -> admission.job().sequence()))
                .map(admission -> admission.job().uid()).toList();
    }

    /**
     * The usage with the reclaimers charged, without the jobs being preempted: what will be charged once every reclaim
     * under way is complete. Jobs only being withdrawn stay counted: what they free is no one's in particular.
     */
    private Map<String, ResourceList> withoutJobsBeingPreempted(QuotaTree tree, Map<String, ResourceList> withReclaimers) {
        Map<String, ResourceList> usage = new HashMap<>(withReclaimers);
        for (Admission admission : ledger.beingPreempted()) {
            QuotaLedger.uncharge(tree, admission.job(), admission.leaf(), usage);
        }
        return usage;
    }

    /** The reclaimer's waiting message: which victims it still waits for. */
    String message(Wait reclaimer) {
        return "reclaiming borrowed capacity: waiting for " + reclaimer.reclaiming().stream()
                .map(uid -> Optional.ofNullable(ledger.admission(uid)).map(victim -> victim.job().ref()).orElse(uid))
                .collect(Collectors.joining(", ")) + " to stop on " + (reclaimer.reclaiming().size() == 1 ? "its member" : "their members");
    }

    /** The reclaimer the victim was waited for by no longer waits for it; the last one gone, it is admitted if it fits. */
    void victimGone(String victim, Instant now, List<QuotaDecision> decisions) {
        QuotaTree tree = ledger.tree();
        // Only reclaimers wait for victims: under overload they are a few among thousands of waiting jobs.
        for (Wait wait : ledger.reclaimers()) {
            if (wait.reclaiming().contains(victim)) {
                List<String> left = new ArrayList<>(wait.reclaiming());
                left.remove(victim);
                Wait current = wait.reclaiming(left);
                ledger.putWaiting(wait.job().uid(), current);
                Node leaf = tree.node(current.leaf()).orElseThrow();
                // The capacity the victims freed is the reclaimer's: it goes first, before any job an evaluation ranks higher.
                if (left.isEmpty() && Shortfall.fitsUnderMax(tree.pathToRoot(leaf), current.job().charge(), ledger.used())) {
                    pass.admit(current, now, decisions);
                }
            }
        }
    }
}
