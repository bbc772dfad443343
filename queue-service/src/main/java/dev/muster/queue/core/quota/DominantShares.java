package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.HashMap;
import java.util.Map;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Each node's dominant share of what it borrows: its use above its own {@code min}, over its parent's capacity,
 * resource by resource, the largest of them. The parent's capacity of a resource is its {@code max}, else the sum of
 * its children's {@code min}; a resource with neither, and the job count {@code kube-queue/max-jobs}, take no part.
 * Siblings are compared by this share over their weight (Kueue's and Volcano's dominant-resource fairness, one level
 * at a time). Worked out on demand from the usage of the moment, and forgotten when usage changes.
 */
final class DominantShares {

    private static final MathContext PRECISION = MathContext.DECIMAL64;
    /** Shares closer than this are equal: a sixth over a weight of a half is a third, whatever the last binary digit says. */
    private static final double TOLERANCE = 1e-9;

    private final QuotaTree tree;
    private final Map<String, ResourceList> used;
    private final Map<String, Double> shares = new HashMap<>();
    private int changes;

    DominantShares(QuotaTree tree, Map<String, ResourceList> used) {
        this.tree = tree;
        this.used = used;
    }

    /** Compares two weighted shares, equal within a rounding error. */
    static int compare(double share, double other) {
        if (Double.isInfinite(share) || Double.isInfinite(other)) {
            return Double.compare(share, other);
        }
        if (Math.abs(share - other) <= TOLERANCE * Math.max(1, Math.abs(other))) {
            return 0;
        }
        return share < other ? -1 : 1;
    }

    /** Usage changed: every share is worked out again when next asked. */
    void forget() {
        shares.clear();
        changes++;
    }

    /** How many times usage changed since these shares were made: what a winner chosen by the shares alone lasts for. */
    int changes() {
        return changes;
    }

    /** The node's dominant share, from 0 (it borrows nothing) up; 0 for the root, which has no sibling to share with. */
    double share(Node node) {
        return shares.computeIfAbsent(node.name(), name -> tree.parent(node).map(parent -> compute(node, parent)).orElse(0.0));
    }

    /** The share siblings are compared by: the dominant share over the node's weight; infinite at weight 0 (last to borrow). */
    double weightedShare(Node node) {
        BigDecimal weight = tree.fairSharing().weight(node.name());
        return weight.signum() == 0 ? Double.POSITIVE_INFINITY : share(node) / weight.doubleValue();
    }

    /** The node's weight over the sum of its siblings' and its own: the part of what they borrow that is fairly its. */
    double fairPart(Node node) {
        return tree.parent(node).map(parent -> {
            BigDecimal all = parent.children().stream().map(tree.fairSharing()::weight).reduce(BigDecimal.ZERO, BigDecimal::add);
            return all.signum() == 0 ? 0.0 : tree.fairSharing().weight(node.name()).divide(all, PRECISION).doubleValue();
        }).orElse(1.0);
    }

    /**
     * The node's weighted share were its use changed by {@code change} (a job added, or taken off): what a fair-share
     * preemption weighs before it is made. Not remembered.
     */
    double weightedShareWith(Node node, ResourceList change) {
        BigDecimal weight = tree.fairSharing().weight(node.name());
        if (weight.signum() == 0) {
            return Double.POSITIVE_INFINITY;
        }
        ResourceList use = used.getOrDefault(node.name(), ResourceList.empty()).plus(change);
        return tree.parent(node).map(parent -> share(node, parent, use)).orElse(0.0) / weight.doubleValue();
    }

    private double compute(Node node, Node parent) {
        return share(node, parent, used.getOrDefault(node.name(), ResourceList.empty()));
    }

    private double share(Node node, Node parent, ResourceList use) {
        double largest = 0;
        for (String resource : use.names()) {
            if (resource.equals(ResourceNames.MAX_JOBS)) {
                continue;
            }
            BigDecimal above = use.amount(resource).subtract(node.min().amount(resource));
            BigDecimal capacity = capacity(parent, resource);
            if (above.signum() > 0 && capacity.signum() > 0) {
                largest = Math.max(largest, above.divide(capacity, PRECISION).doubleValue());
            }
        }
        return largest;
    }

    private BigDecimal capacity(Node parent, String resource) {
        if (parent.max().names(resource)) {
            return parent.max().amount(resource);
        }
        BigDecimal guaranteed = BigDecimal.ZERO;
        for (String child : parent.children()) {
            guaranteed = guaranteed.add(tree.node(child).orElseThrow().min().amount(resource));
        }
        return guaranteed;
    }
}
