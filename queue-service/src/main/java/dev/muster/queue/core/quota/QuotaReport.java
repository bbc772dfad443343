package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/** What quota shows of itself: each queue's depth, each node's usage, a waiting job's reason with the numbers of now. */
final class QuotaReport {

    private final QuotaLedger ledger;

    QuotaReport(QuotaLedger ledger) {
        this.ledger = ledger;
    }

    /** Every leaf's queue in one pass over the waiting jobs. */
    List<QueueSummary> queueSummaries() {
        QuotaTree tree = ledger.tree();
        if (tree == null) {
            return List.of();
        }
        Map<String, Integer> depth = new HashMap<>();
        Map<String, Instant> oldest = new HashMap<>();
        for (Wait wait : ledger.waits()) {
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
     * Each node's use of each resource its min or max names or it uses, root first, with the jobs waiting in its subtree
     * and how it shares what it borrows with its siblings.
     */
    List<QuotaUsageRow> usageRows() {
        QuotaTree tree = ledger.tree();
        if (tree == null) {
            return List.of();
        }
        Map<String, Integer> waitingUnder = new HashMap<>();
        for (QueueSummary summary : queueSummaries()) {
            for (String name : tree.node(summary.leaf()).orElseThrow().path()) {
                waitingUnder.merge(name, summary.depth(), Integer::sum);
            }
        }
        List<QuotaUsageRow> rows = new ArrayList<>();
        DominantShares shares = new DominantShares(tree, ledger.used());
        boolean fair = tree.fairSharing().enabled();
        for (Node node : tree.nodes()) {
            boolean root = tree.parent(node).isEmpty();
            String weight = root || !fair ? "" : tree.fairSharing().weight(node.name()).stripTrailingZeros().toPlainString();
            String share = root ? "" : percent(shares.share(node));
            String fairShare = root || !fair ? "" : percent(shares.fairPart(node));
            SortedSet<String> resources = new TreeSet<>(node.max().names());
            resources.addAll(node.min().names());
            ResourceList use = ledger.usage(node.name());
            use.names().stream().filter(name -> use.amount(name).signum() != 0).forEach(resources::add);
            if (resources.isEmpty()) {
                // A node that limits, guarantees and uses nothing still has its row: what waits under it, its weight.
                resources.add("");
            }
            for (String resource : resources) {
                rows.add(new QuotaUsageRow(node.pathText(), node.queue(), waitingUnder.getOrDefault(node.name(), 0),
                        resource, resource.isEmpty() ? "" : Quantities.format(resource, use.amount(resource)),
                        node.min().names().contains(resource) ? Quantities.format(resource, node.min().amount(resource)) : "",
                        node.max().names().contains(resource) ? Quantities.format(resource, node.max().amount(resource)) : "",
                        weight, share, fairShare, null));
            }
        }
        return rows;
    }

    /** A part of a whole as people read it: {@code 37.5%}, {@code 0%}. */
    private static String percent(double part) {
        return BigDecimal.valueOf(part * 100).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString() + "%";
    }

    /** Why a waiting job waits on a quota limit, with the numbers of now; empty for a job not waiting on one. */
    Optional<String> currentMessage(String uid) {
        Wait wait = ledger.wait(uid);
        QuotaTree tree = ledger.tree();
        if (wait == null || tree == null || wait.leaf() == null || !QuotaAdmission.QUOTA_EXCEEDED.equals(wait.reason())) {
            return Optional.empty();
        }
        return tree.node(wait.leaf()).flatMap(leaf -> Shortfall.first(tree.pathToRoot(leaf), wait.job().charge(), ledger.used(), Holds.NONE))
                .map(Shortfall::message);
    }
}
