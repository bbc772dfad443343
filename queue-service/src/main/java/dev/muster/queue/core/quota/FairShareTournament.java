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
        return winner(List.copyOf(candidates), 1, leafOf, tree, shares, order);
    }

    private static <C> C winner(List<C> group, int depth, Function<C, Node> leafOf, QuotaTree tree, DominantShares shares, Comparator<C> order) {
        if (group.size() == 1) {
            return group.get(0);
        }
        // Leaves are never ancestors of leaves: two candidates or more share a node above their leaves, so each has a depth-th node.
        Map<String, List<C>> bySubtree = new LinkedHashMap<>();
        for (C candidate : group) {
            bySubtree.computeIfAbsent(leafOf.apply(candidate).path().get(depth), node -> new ArrayList<>()).add(candidate);
        }
        C best = null;
        double bestShare = 0;
        for (Map.Entry<String, List<C>> subtree : bySubtree.entrySet()) {
            C champion = winner(subtree.getValue(), depth + 1, leafOf, tree, shares, order);
            double share = shares.weightedShare(tree.node(subtree.getKey()).orElseThrow());
            int byShare = best == null ? -1 : DominantShares.compare(share, bestShare);
            if (byShare < 0 || byShare == 0 && order.compare(champion, best) < 0) {
                best = champion;
                bestShare = share;
            }
        }
        return best;
    }
}
