package dev.muster.queue.core.quota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Which queue's head the fair order serves next, chosen as a tournament down the tree (as Kueue's fair sharing does
 * across a cohort's hierarchy): under the root, the child of lowest weighted dominant share wins, then under it the
 * child of lowest share, down to a leaf. Siblings of equal share are decided by their best heads' own order
 * (priority, then submission). A tournament rather than a sort: comparing two heads by the shares where their paths
 * part is not a total order once ties fall back to the heads.
 */
final class FairShareTournament {

    private FairShareTournament() {
    }

    /**
     * @param candidates one per leaf
     * @param leafOf     the leaf of a candidate
     * @param order      the candidates' own order, for siblings of equal share
     */
    static <C> C winner(Collection<C> candidates, Function<C, Node> leafOf, QuotaTree tree, DominantShares shares, Comparator<C> order) {
        return play(candidates, leafOf, tree, shares, order).winner();
    }

    /**
     * The winner, and whether the shares alone chose it: at every level its subtree's share below every other's, so
     * that, while the shares stay as they are, no other candidate's head can beat it, and none that drops out matters.
     */
    record Outcome<C>(C winner, boolean bySharesAlone) {
    }

    static <C> Outcome<C> play(Collection<C> candidates, Function<C, Node> leafOf, QuotaTree tree, DominantShares shares,
                               Comparator<C> order) {
        return winner(List.copyOf(candidates), 1, leafOf, tree, shares, order);
    }

    private static <C> Outcome<C> winner(List<C> group, int depth, Function<C, Node> leafOf, QuotaTree tree, DominantShares shares,
                                         Comparator<C> order) {
        if (group.size() == 1) {
            return new Outcome<>(group.get(0), true);
        }
        // Leaves are never ancestors of leaves: two candidates or more share a node above their leaves, so each has a depth-th node.
        Map<String, List<C>> bySubtree = new LinkedHashMap<>();
        for (C candidate : group) {
            bySubtree.computeIfAbsent(leafOf.apply(candidate).path().get(depth), node -> new ArrayList<>()).add(candidate);
        }
        Outcome<C> best = null;
        double bestShare = 0;
        for (Map.Entry<String, List<C>> subtree : bySubtree.entrySet()) {
            Outcome<C> champion = winner(subtree.getValue(), depth + 1, leafOf, tree, shares, order);
            double share = shares.weightedShare(tree.node(subtree.getKey()).orElseThrow());
            int byShare = best == null ? -1 : DominantShares.compare(share, bestShare);
            if (byShare < 0 || byShare == 0 && order.compare(champion.winner(), best.winner()) < 0) {
                best = champion;
                bestShare = share;
            }
        }
        return new Outcome<>(best.winner(), best.bySharesAlone() && alone(bySubtree.keySet(), bestShare, tree, shares));
    }

    /** Whether one subtree alone has the lowest share (within the tolerance, which is not transitive: each is compared). */
    private static boolean alone(Collection<String> subtrees, double lowest, QuotaTree tree, DominantShares shares) {
        int atMost = 0;
        for (String subtree : subtrees) {
            if (DominantShares.compare(shares.weightedShare(tree.node(subtree).orElseThrow()), lowest) <= 0) {
                atMost++;
            }
        }
        return atMost == 1;
    }
}
