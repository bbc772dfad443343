package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * When a pass may stop: once no job left in it can be admitted, the rest of the pass would only tell each job again why
 * it waits. A core that only has to say whom it admits and preempts (the start-time estimate's copy) may always stop
 * there; the service's core may while the reasons it told are recent enough ({@link QuotaSettings#reasonRefresh}).
 * <p>
 * Within a pass usage and holds only grow ({@link PassMemo}), so a demand a leaf's path refused stays refused until the
 * pass ends. Once every demand of every queue left is known to be refused, none of their jobs can be admitted. The pass
 * may then stop if, besides, every job left was either never told why it waits (the pass then tells it, see
 * {@link QueuePass}) or last told that a quota limit refuses it, has no backoff and reclaims nothing, and its queue is not
 * strict FIFO: a full pass would tell each of them a quota limit again, and whether a quota limit refuses a job is all a
 * later reclaim reads of what it was told. Fair-sharing preemption reads which limit, so a core that preempts for fair
 * share never stops early.
 */
final class PassEnd {

    /**
     * The demands of a leaf's jobs known to fit its path's max when nothing is used, kept while the tree stays: a check
     * must not take a job that can never be admitted, and would be told so, for one a quota limit refuses.
     */
    record FitsTree(QuotaTree tree, Set<ResourceList> demands) {
    }

    private final QuotaLedger ledger;
    private final Set<String> strictLeaves;
    private final Map<String, FitsTree> fitsTree;
    /** The demands known to be refused in this pass, by leaf, by instance. */
    private final Map<String, Set<ResourceList>> refused = new HashMap<>();
    private int considered;
    private int nextCheck;
    /** How many demands the checks have weighed: work a replay's budget counts beside the jobs considered. */
    private long demandsWeighed;

    /**
     * @param fitsTree   by leaf, kept by the caller from pass to pass
     * @param firstCheck checking every queue left costs a look at each of their demands: done once this many jobs have
     *                   been considered, then at each doubling; 0 to check after every job
     */
    PassEnd(QuotaLedger ledger, Set<String> strictLeaves, Map<String, FitsTree> fitsTree, int firstCheck) {
        this.ledger = ledger;
        this.strictLeaves = strictLeaves;
        this.fitsTree = fitsTree;
        this.nextCheck = firstCheck;
    }

    /** A job of this demand in this leaf was refused by a quota limit: so is every other for the rest of the pass. */
    void refused(String leaf, ResourceList demand) {
        refused.computeIfAbsent(leaf, name -> Collections.newSetFromMap(new IdentityHashMap<>())).add(demand);
    }

    /**
     * Counts one more job considered, and says whether none of the jobs left in these leaves' queues can be admitted in
     * this pass, nor would be told anything but a quota limit (the ones never told anything yet included).
     *
     * @param pathsLeft the path to the root of each leaf whose queue the pass has not finished
     */
    boolean reached(Iterable<List<Node>> pathsLeft, Map<String, ResourceList> used, Holds holds) {
        if (++considered < nextCheck) {
            return false;
        }
        nextCheck = nextCheck == 0 ? 0 : considered * 2;
        Room room = new Room(used, holds);
        for (List<Node> path : pathsLeft) {
            String leaf = path.get(0).name();
            QueueDemands waiting = ledger.demandsWaiting(leaf);
            if (strictLeaves.contains(leaf) || !waiting.allRefusedOrUntold()) {
                return false;
            }
            Set<ResourceList> known = refused.getOrDefault(leaf, Set.of());
            Set<ResourceList> fitting = fitting(leaf);
            for (ResourceList demand : waiting.demands()) {
                if (known.contains(demand)) {
                    continue;
                }
                demandsWeighed++;
                ResourceList charge = ledger.chargeOf(demand);
                if (!fitting.contains(demand)) {
                    if (!Shortfall.fitsUnderMax(path, charge, Map.of())) {
                        return false;
                    }
                    fitting.add(demand);
                }
                if (!room.refuses(path, charge)) {
                    return false;
                }
                refused(leaf, demand);
            }
        }
        return true;
    }

    long demandsWeighed() {
        return demandsWeighed;
    }

    private Set<ResourceList> fitting(String leaf) {
        FitsTree known = fitsTree.get(leaf);
        if (known == null || known.tree() != ledger.tree()) {
            known = new FitsTree(ledger.tree(), Collections.newSetFromMap(new IdentityHashMap<>()));
            fitsTree.put(leaf, known);
        }
        return known.demands();
    }

    /**
     * What each node has left of each resource its max names, beside what is used and held, worked out once per node for
     * one check of many demands. A demand is refused if any node of its path has too little: looked at from the root down,
     * as under overload the root is what is short.
     */
    private static final class Room {

        private final Map<String, ResourceList> used;
        private final Holds holds;
        private final Map<String, Map<String, BigDecimal>> left = new HashMap<>();

        Room(Map<String, ResourceList> used, Holds holds) {
            this.used = used;
            this.holds = holds;
        }

        boolean refuses(List<Node> path, ResourceList charge) {
            for (int i = path.size() - 1; i >= 0; i--) {
                Node node = path.get(i);
                for (Map.Entry<String, BigDecimal> room : left(node).entrySet()) {
                    BigDecimal need = charge.amount(room.getKey());
                    if (need.signum() != 0 && need.compareTo(room.getValue()) > 0) {
                        return true;
                    }
                }
            }
            return false;
        }

        private Map<String, BigDecimal> left(Node node) {
            return left.computeIfAbsent(node.name(), name -> {
                ResourceList nodeUsed = used.getOrDefault(name, ResourceList.empty());
                Map<String, BigDecimal> amounts = new HashMap<>();
                for (String resource : node.max().names()) {
                    amounts.put(resource, node.max().amount(resource).subtract(nodeUsed.amount(resource)).subtract(holds.heldAt(name, resource)));
                }
                return amounts;
            });
        }
    }
}
