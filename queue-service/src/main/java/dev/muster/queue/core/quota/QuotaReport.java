package dev.muster.queue.core.quota;

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

    /** Each node's use of each resource its min or max names, root first, with the jobs waiting in its subtree. */
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
        for (Node node : tree.nodes()) {
            SortedSet<String> resources = new TreeSet<>(node.max().names());
            resources.addAll(node.min().names());
            for (String resource : resources) {
                rows.add(new QuotaUsageRow(node.pathText(), node.queue(), waitingUnder.getOrDefault(node.name(), 0),
                        resource, Quantities.format(resource, ledger.usage(node.name()).amount(resource)),
                        node.min().names().contains(resource) ? Quantities.format(resource, node.min().amount(resource)) : "",
                        node.max().names().contains(resource) ? Quantities.format(resource, node.max().amount(resource)) : ""));
            }
        }
        return rows;
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
