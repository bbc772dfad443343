package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * Capacity held, within one evaluation, for jobs that must not be passed: those starving, and those reclaiming
 * capacity whose victims are stopping (what a stopped victim frees is theirs, held from the start of each pass). By
 * node, with who holds it.
 * <p>
 * Under overload thousands of jobs starve and each holds once per evaluation, so the sums are kept in place and only
 * the first few starving jobs are named: a waiting message names no more ({@link Shortfall}).
 */
final class Holds {

    static final Holds NONE = new Holds();

    /** How many distinct starving jobs are named per node: those a message names, and one more to know there are others. */
    static final int STARVING_NAMED = Shortfall.HOLDERS_NAMED + 1;

    private final Map<String, AtNode> nodes = new HashMap<>();

    void hold(List<Node> path, QuotaJob job, ResourceList charge, boolean isStarving) {
        for (Node node : path) {
            AtNode at = nodes.computeIfAbsent(node.name(), name -> new AtNode());
            at.add(charge, false);
            if (isStarving) {
                at.nameStarving(job);
            } else {
                at.reclaimers.add(job.ref());
            }
        }
    }

    /** Takes back what {@link #hold} held for a reclaimer, so that it is weighed without its own hold. */
    void release(List<Node> path, QuotaJob job, ResourceList charge) {
        String ref = job.ref();
        for (Node node : path) {
            AtNode at = nodes.computeIfAbsent(node.name(), name -> new AtNode());
            at.add(charge, true);
            at.reclaimers.remove(ref);
        }
    }

    /** What is held at the node of the resource; zero when nothing is. */
    BigDecimal heldAt(String node, String resource) {
        return heldAt(at(node), resource);
    }

    /** What is held at the node; null when nothing ever was in this evaluation. Looked up once for each node a verdict weighs. */
    AtNode at(String node) {
        return nodes.get(node);
    }

    /** What is held at the node {@link #at} returned of the resource; zero when nothing is. */
    static BigDecimal heldAt(AtNode at, String resource) {
        return at == null ? BigDecimal.ZERO : at.held(resource);
    }

    /** The first {@link #STARVING_NAMED} distinct starving jobs capacity is held for at the node, in the order they held it. */
    List<String> starvingNamedAt(String node) {
        AtNode at = nodes.get(node);
        return at == null ? List.of() : at.starvingNamed;
    }

    /** How many times what is held at the node changed: an evaluation's verdicts are checked again where it did. */
    int version(String node) {
        AtNode at = nodes.get(node);
        return at == null ? 0 : at.version;
    }

    Set<String> reclaimersAt(String node) {
        AtNode at = nodes.get(node);
        return at == null ? Set.of() : at.reclaimers;
    }

    static final class AtNode {

        // A node holds a few resources (those of the charges held there): scanned, which beats hashing the name for each
        // of the thousands of verdicts an evaluation under overload checks.
        private String[] heldNames = new String[4];
        private BigDecimal[] heldAmounts = new BigDecimal[4];
        private int heldCount;
        private final List<String> starvingNamed = new ArrayList<>(STARVING_NAMED);
        private final Set<String> reclaimers = new LinkedHashSet<>();
        private int version;

        void add(ResourceList charge, boolean negate) {
            version++;
            for (int i = 0; i < charge.size(); i++) {
                BigDecimal amount = charge.amountAt(i);
                add(charge.nameAt(i), negate ? amount.negate() : amount);
            }
        }

        private void add(String resource, BigDecimal amount) {
            int index = indexOf(resource);
            if (index >= 0) {
                heldAmounts[index] = heldAmounts[index].add(amount);
                return;
            }
            if (heldCount == heldNames.length) {
                heldNames = java.util.Arrays.copyOf(heldNames, heldCount * 2);
                heldAmounts = java.util.Arrays.copyOf(heldAmounts, heldCount * 2);
            }
            heldNames[heldCount] = resource;
            heldAmounts[heldCount++] = amount;
        }

        BigDecimal held(String resource) {
            int index = indexOf(resource);
            return index < 0 ? BigDecimal.ZERO : heldAmounts[index];
        }

        private int indexOf(String resource) {
            for (int i = 0; i < heldCount; i++) {
                if (heldNames[i].equals(resource)) {
                    return i;
                }
            }
            return -1;
        }

        void nameStarving(QuotaJob job) {
            // Worded only while names are wanted: thousands of starving jobs hold in each pass under overload.
            if (starvingNamed.size() < STARVING_NAMED) {
                String ref = job.ref();
                if (!starvingNamed.contains(ref)) {
                    starvingNamed.add(ref);
                }
            }
        }
    }
}
