package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.muster.model.resource.Quantities;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * A limit a job would break, and the waiting reason and message that say so.
 *
 * @param holders    the first distinct starving jobs capacity is held for at the node (a message names three, then "others")
 * @param reclaimers the jobs whose reclaims hold capacity at the node
 */
record Shortfall(Node node, String resource, BigDecimal used, BigDecimal held, BigDecimal max, BigDecimal need,
                 List<String> holders, Set<String> reclaimers) {

    /** How many of the starving jobs capacity is held for a waiting message names. */
    static final int HOLDERS_NAMED = 3;

    /** The first node on the path, leaf first, where the charge would exceed a max, counting what is held for others. */
    static Optional<Shortfall> first(List<Node> path, ResourceList charge, Map<String, ResourceList> usage, Holds holds) {
        return first(path, charge, usage, holds, null, node -> true);
    }

    /**
     * The first node on the path, leaf first, where the charge would exceed a max, looking no further than this limit
     * (exclusive) and only at the nodes {@code changed} says may have changed since the limit was found.
     */
    static Optional<Shortfall> before(Shortfall limit, List<Node> path, ResourceList charge, Map<String, ResourceList> usage,
                                      Holds holds, java.util.function.Predicate<Node> changed) {
        return first(path, charge, usage, holds, limit, changed);
    }

    private static Optional<Shortfall> first(List<Node> path, ResourceList charge, Map<String, ResourceList> usage, Holds holds,
                                             Shortfall until, java.util.function.Predicate<Node> changed) {
        for (Node node : path) {
            boolean last = until != null && node.name().equals(until.node().name());
            if (!changed.test(node)) {
                if (last) {
                    break;
                }
                continue;
            }
            ResourceList nodeUsed = usage.getOrDefault(node.name(), ResourceList.empty());
            Holds.AtNode heldThere = holds.at(node.name());
            ResourceList max = node.max();
            for (int i = 0; i < max.size(); i++) {
                String resource = max.nameAt(i);
                if (last && resource.equals(until.resource())) {
                    return Optional.empty();
                }
                BigDecimal need = charge.amount(resource);
                if (need.signum() == 0) {
                    continue;
                }
                BigDecimal inUse = nodeUsed.amount(resource);
                BigDecimal onHold = Holds.heldAt(heldThere, resource);
                BigDecimal limit = max.amountAt(i);
                if ((onHold.signum() == 0 ? inUse : inUse.add(onHold)).add(need).compareTo(limit) > 0) {
                    return Optional.of(new Shortfall(node, resource, inUse, onHold, limit, need,
                            List.copyOf(holds.starvingNamedAt(node.name())), snapshot(holds.reclaimersAt(node.name()))));
                }
            }
            if (last) {
                break;
            }
        }
        return Optional.empty();
    }

    /**
     * The reclaimers as they are now (the holds go on changing after this shortfall is found), by name: a pass takes a
     * reclaimer's hold back and holds it again whenever it weighs the reclaimer, so the order they were held in depends
     * on which queues the pass walked, which a message must not.
     */
    private static Set<String> snapshot(Set<String> reclaimers) {
        return reclaimers.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(new java.util.TreeSet<>(reclaimers));
    }

    /** Whether the charge fits under every max on the path with this usage. */
    static boolean fitsUnderMax(List<Node> path, ResourceList charge, Map<String, ResourceList> usage) {
        return first(path, charge, usage, Holds.NONE).isEmpty();
    }

    boolean causedByHeldCapacity() {
        return held.signum() > 0 && used.add(need).compareTo(max) <= 0;
    }

    String reason() {
        if (!causedByHeldCapacity()) {
            return QuotaAdmission.QUOTA_EXCEEDED;
        }
        return holders.isEmpty() ? QuotaAdmission.HELD_FOR_RECLAIM : QuotaAdmission.HELD_FOR_STARVING_JOB;
    }

    /** What the message says before its numbers: the node and the resource. */
    String blocker() {
        return node.pathText() + ": " + resource + " ";
    }

    String message() {
        StringBuilder text = new StringBuilder(blocker())
                .append(Quantities.format(resource, used)).append('/').append(Quantities.format(resource, max)).append(" in use");
        if (held.signum() > 0) {
            text.append(" and ").append(Quantities.format(resource, held)).append(" held for ");
            if (!holders.isEmpty()) {
                text.append("starving ").append(holders.stream().limit(HOLDERS_NAMED).collect(Collectors.joining(", ")));
                // Under overload thousands of jobs may starve: the message names a few.
                if (holders.size() > HOLDERS_NAMED) {
                    text.append(" and others");
                }
            }
            if (!reclaimers.isEmpty()) {
                text.append(holders.isEmpty() ? "" : " and ").append(reclaimers.size() == 1 ? "reclaimer " : "reclaimers ")
                        .append(String.join(", ", reclaimers));
            }
        }
        if (!ResourceNames.MAX_JOBS.equals(resource)) {
            text.append(", job needs ").append(Quantities.format(resource, need));
        }
        return text.toString();
    }

    /** The message of a job this limit refuses even with nothing else admitted. */
    String neverMessage() {
        return node.pathText() + ": " + resource + " max " + Quantities.format(resource, max)
                + ", job needs " + Quantities.format(resource, need) + "; it can never be admitted under this tree";
    }
}
