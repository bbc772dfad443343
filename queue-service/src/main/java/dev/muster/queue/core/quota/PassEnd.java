package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.time.Instant;
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
 * {@link QueuePass}), or was last told that a quota limit refuses it and reclaims nothing, or was given back by placement
 * and told that it waits out a backoff that has not ended, or was told that it reclaims and has no room yet, and its
 * queue is not strict FIFO: a full pass would tell each of them a quota limit again, and whether a quota limit refuses a job is all a
 * later reclaim reads of what it was told. Fair-sharing preemption reads which limit, so a core that preempts for fair
 * share never stops early.
 */
final class PassEnd {

    private final QuotaLedger ledger;
    private final Reclaims reclaims;
    private final Set<String> strictLeaves;
    /** The demands known to be refused in this pass, by leaf, by instance. */
    private final Map<String, Set<ResourceList>> refused = new HashMap<>();
    private int considered;
    private int nextCheck;
    /** How many demands the checks have weighed: work a replay's budget counts beside the jobs considered. */
    private long demandsWeighed;

    /**
     * @param firstCheck checking every queue left costs a look at each of their demands: done once this many jobs have
     *                   been considered, then at each doubling; 0 to check after every job
     */
    PassEnd(QuotaLedger ledger, Reclaims reclaims, Set<String> strictLeaves, int firstCheck) {
        this.ledger = ledger;
        this.reclaims = reclaims;
        this.strictLeaves = strictLeaves;
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
    boolean reached(Iterable<List<Node>> pathsLeft, Map<String, ResourceList> used, Holds holds, Instant now) {
        if (++considered < nextCheck) {
            return false;
        }
        nextCheck = nextCheck == 0 ? 0 : considered * 2;
        Room room = new Room(used, holds);
        for (List<Node> path : pathsLeft) {
            String leaf = path.get(0).name();
            QueueDemands waiting = ledger.demandsWaiting(leaf);
            if (strictLeaves.contains(leaf) || !waiting.allRefusedUntoldGivenBackOrReclaiming() || !givenBackToldAlready(waiting, now)
                    || !reclaimersToldAlready(path, waiting, room)) {
                return false;
            }
            // A check must not take a job that can never be admitted, and would be told so, for one a quota limit refuses.
            if (!waiting.greatestChargeFitsUnder(path)) {
                return false;
            }
            Set<ResourceList> known = refused.getOrDefault(leaf, Set.of());
            for (ResourceList demand : waiting.least()) {
                if (known.contains(demand)) {
                    continue;
                }
                demandsWeighed++;
                if (!room.refuses(path, ledger.chargeOf(demand))) {
                    return false;
                }
                refused(leaf, demand);
            }
        }
        return true;
    }

    /**
     * Whether each job of the queue given back by placement would be told nothing new: while its backoff lasts, told
     * that it does; after, told that a quota limit refuses it (its demand is then weighed with the others').
     */
    private boolean givenBackToldAlready(QueueDemands waiting, Instant now) {
        for (String uid : waiting.givenBack()) {
            Wait wait = ledger.wait(uid);
            boolean told = now.isBefore(wait.notBefore())
                    ? QuotaAdmission.BACKOFF.equals(wait.reason()) && QueuePass.backoffMessage(wait.notBefore()).equals(wait.message())
                    : wait.waitingSince() != null && QueuePass.isQuotaLimit(wait.reason());
            if (!told) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether each job of the queue that reclaims capacity was told so and cannot be admitted in this pass. Every
     * reclaimer's charge is held from the pass's start, and weighing one takes its own hold back: it is admitted if the
     * path has room for it then, that is if nothing on the path is held or used beyond its max of a resource it asks for.
     * Holds only grow, so one that finds no room now finds none later in the pass.
     */
    private boolean reclaimersToldAlready(List<Node> path, QueueDemands waiting, Room room) {
        for (String uid : waiting.reclaimers()) {
            Wait wait = ledger.wait(uid);
            if (!QuotaAdmission.RECLAIMING.equals(wait.reason()) || !reclaims.message(wait).equals(wait.message())
                    || !room.overcommitted(path, ledger.chargeOf(wait.job().demand()))) {
                return false;
            }
        }
        return true;
    }

    long demandsWeighed() {
        return demandsWeighed;
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

        /** Whether some node of the path has more used and held than its max of a resource the charge asks for. */
        boolean overcommitted(List<Node> path, ResourceList charge) {
            for (Node node : path) {
                for (Map.Entry<String, BigDecimal> room : left(node).entrySet()) {
                    if (charge.amount(room.getKey()).signum() != 0 && room.getValue().signum() < 0) {
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
