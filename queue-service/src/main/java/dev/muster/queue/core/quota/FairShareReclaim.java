package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Which borrowers a borrower's job may preempt under fair sharing ({@code muster.dev/fair-sharing-preemption:
 * LessThanOrEqualToFinalShare}, Kueue's strategy of that name): jobs of a sibling subtree, under a node where the job is
 * short of a resource they hold, each taken only if the job's own subtree, with the job, then has a weighted share at
 * most the sibling's without it, and below the sibling's with it. So no borrower is taken below the preemptor's share,
 * and the two cannot take the same capacity back and forth: after a preemption the preemptor's share is at most the
 * victim's, and taking any of it back would need it below. The rules only; {@link Reclaims} carries a reclaim out.
 */
final class FairShareReclaim {

    private final QuotaTree tree;
    private final Map<String, ResourceList> used;

    FairShareReclaim(QuotaTree tree, Map<String, ResourceList> used) {
        this.tree = tree;
        this.used = used;
    }

    /**
     * The fewest admitted jobs, from the sibling subtree of highest share first, then lowest priority and newest, whose
     * removal lets the job fit; none when the strategy does not allow enough of them. Jobs being stopped already are not
     * taken again.
     */
    List<Admission> victimsFor(List<Node> path, QuotaJob job, Collection<Admission> admitted) {
        Set<String> onPath = path.stream().map(Node::name).collect(Collectors.toSet());
        Map<String, ResourceList> simulated = new HashMap<>(used);
        DominantShares before = new DominantShares(tree, simulated);
        List<Candidate> candidates = new ArrayList<>();
        for (Admission admission : admitted) {
            if (!admission.stopping()) {
                contested(admission, path, onPath, job).ifPresent(branch -> candidates.add(new Candidate(admission, branch,
                        before.weightedShare(branch.victims()))));
            }
        }
        if (candidates.isEmpty()) {
            return List.of();
        }
        candidates.sort(Comparator.comparing(Candidate::share, (share, other) -> DominantShares.compare(other, share))
                .thenComparingInt(candidate -> candidate.admission().job().priority())
                .thenComparing(candidate -> candidate.admission().admittedAt(), Comparator.reverseOrder())
                .thenComparing(candidate -> candidate.admission().job().sequence(), Comparator.reverseOrder()));
        List<Admission> chosen = new ArrayList<>();
        // Reads the simulated usage as victims come off it; weightedShareWith remembers nothing, so no share goes stale.
        DominantShares now = new DominantShares(tree, simulated);
        for (Candidate candidate : candidates) {
            if (Shortfall.fitsUnderMax(path, job.charge(), simulated)) {
                break;
            }
            double preemptorWith = now.weightedShareWith(candidate.branch().preemptors(), job.charge());
            double victimWithout = now.weightedShareWith(candidate.branch().victims(), ResourceList.empty().minus(candidate.admission().job().charge()));
            double victimWith = now.weightedShareWith(candidate.branch().victims(), ResourceList.empty());
            // Below the victim's share as it stands too: where both shares are set by a resource neither job asks (GPUs
            // other jobs hold, beside contested CPUs), they tie whichever runs, and two borrowers took the same capacity
            // back and forth for ever (a property run found it).
            if (DominantShares.compare(preemptorWith, victimWithout) <= 0 && DominantShares.compare(preemptorWith, victimWith) < 0) {
                QuotaLedger.uncharge(tree, candidate.admission().job(), candidate.admission().leaf(), simulated);
                chosen.add(candidate.admission());
            }
        }
        return Shortfall.fitsUnderMax(path, job.charge(), simulated) ? chosen : List.of();
    }

    /**
     * An admitted job that may give way, the two siblings it and the waiting job are under, and its sibling's weighted
     * share before any victim comes off, worked out once rather than at each comparison of the sort.
     */
    private record Candidate(Admission admission, Branches branch, double share) {
    }

    /** The children of the node where the two jobs' paths part: the waiting job's, and the admitted job's. */
    private record Branches(Node preemptors, Node victims) {
    }

    /**
     * Where the admitted job competes with the waiting one: the node where their paths part is one where the waiting
     * job is short, and the admitted job holds some of what it is short of there.
     */
    private Optional<Branches> contested(Admission admission, List<Node> path, Set<String> onPath, QuotaJob job) {
        List<String> victimPath = tree.node(admission.leaf()).orElseThrow().path();
        for (int depth = 0; depth < victimPath.size() - 1; depth++) {
            String branch = victimPath.get(depth + 1);
            if (onPath.contains(branch)) {
                continue;
            }
            Node parting = tree.node(victimPath.get(depth)).orElseThrow();
            Node preemptors = path.get(path.size() - depth - 2);
            ResourceList partingUsed = used.getOrDefault(parting.name(), ResourceList.empty());
            for (String resource : parting.max().names()) {
                BigDecimal need = job.charge().amount(resource);
                if (need.signum() > 0 && admission.job().charge().amount(resource).signum() > 0
                        && partingUsed.amount(resource).add(need).compareTo(parting.max().amount(resource)) > 0) {
                    return Optional.of(new Branches(preemptors, tree.node(branch).orElseThrow()));
                }
            }
            return Optional.empty();
        }
        return Optional.empty();
    }
}
