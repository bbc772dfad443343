package dev.muster.queue.core.quota;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.quota.QuotaTree.Node;

/**
 * What the jobs waiting in one queue ask: how many ask each demand (by the instance the jobs of one demand share), which
 * were never told why they wait (new, or waiting afresh), which were given back by placement, which reclaim capacity,
 * and how many were told something else than that a quota limit refuses them (never fitting, or behind something else). A pass may
 * end once no demand of the queues left fits and no job left would be told anything new but a quota limit
 * ({@link PassEnd}).
 */
final class QueueDemands {

    static final QueueDemands NONE = new QueueDemands();

    private final Map<ResourceList, int[]> counts = new IdentityHashMap<>();
    /** By UID, in the order they came. */
    private final Set<String> untold = new LinkedHashSet<>();
    /** The jobs given back by placement, by UID: a pass need not reach one told so while its backoff lasts. */
    private final Set<String> givenBack = new LinkedHashSet<>();
    /** The jobs waiting for their reclaim's victims to stop, by UID: a pass need not reach one that cannot be admitted yet. */
    private final Set<String> reclaimers = new LinkedHashSet<>();
    private int toldOtherwise;
    private int version;
    /** See {@link #least}; null when a demand came or went since it was worked out. */
    private List<ResourceList> least;
    /** See {@link #greatestCharge}; null when a demand came or went since it was worked out. */
    private ResourceList greatestCharge;
    /** See {@link #greatestChargeFitsUnder}: the path it was last answered for, null when a demand came or went since. */
    private List<Node> greatestChargeCheckedOn;
    private boolean greatestChargeFits;
    /** See {@link #leastAsked}, by resource, worked out as asked; emptied when a demand comes or goes. */
    private final Map<String, java.util.Optional<BigDecimal>> leastAsked = new java.util.HashMap<>();

    void add(Wait wait) {
        int[] count = counts.computeIfAbsent(wait.job().demand(), demand -> new int[1]);
        if (count[0]++ == 0) {
            demandsChanged();
        }
        sort(wait, true);
    }

    /** @return whether no job is left */
    boolean remove(Wait wait) {
        int[] count = counts.get(wait.job().demand());
        if (--count[0] == 0) {
            counts.remove(wait.job().demand());
            demandsChanged();
        }
        sort(wait, false);
        return counts.isEmpty();
    }

    /**
     * The same job of the same demand told anew: only where it is kept or counted moves. Its demand stays asked, so what
     * was worked out from the demands holds (a queue of one job told anew would otherwise look like a new queue).
     */
    void retold(Wait previous, Wait current) {
        sort(previous, false);
        sort(current, true);
    }

    private void sort(Wait wait, boolean in) {
        Set<String> kept = keptIn(wait);
        if (kept != null) {
            if (in) {
                kept.add(wait.job().uid());
            } else {
                kept.remove(wait.job().uid());
            }
        } else if (!plainlyRefused(wait)) {
            toldOtherwise += in ? 1 : -1;
        }
    }

    /** Where a job told as this one is kept by UID: never told, given back, or reclaiming; null for any other, only counted. */
    private Set<String> keptIn(Wait wait) {
        if (untold(wait)) {
            return untold;
        }
        if (givenBack(wait)) {
            return givenBack;
        }
        return reclaimer(wait) ? reclaimers : null;
    }

    /** The distinct demands the queue's jobs ask, by instance. */
    Set<ResourceList> demands() {
        return Collections.unmodifiableSet(counts.keySet());
    }

    /**
     * The demands no other demand of the queue asks less than of every resource, one of equal ones: if a quota limit
     * refuses each of these, it refuses every demand of the queue, as each asks at least as much as one of them. Under
     * overload a queue holds jobs of tens of shapes and few of them are least.
     */
    List<ResourceList> least() {
        if (least == null) {
            List<ResourceList> found = new ArrayList<>();
            for (ResourceList demand : counts.keySet()) {
                if (found.stream().noneMatch(kept -> atMost(kept, demand))) {
                    found.removeIf(kept -> atMost(demand, kept));
                    found.add(demand);
                }
            }
            least = List.copyOf(found);
        }
        return least;
    }

    /** The most any of the queue's jobs is charged of each resource: if this fits under every max, each job's charge does. */
    ResourceList greatestCharge() {
        if (greatestCharge == null) {
            ResourceList greatest = ResourceList.empty();
            for (ResourceList demand : counts.keySet()) {
                greatest = greatest.max(demand);
            }
            greatestCharge = greatest.plus(QuotaJob.ONE_JOB);
        }
        return greatestCharge;
    }

    /**
     * Whether {@link #greatestCharge} fits under every max of the path with nothing else used, so that no job of the queue
     * can never be admitted there: kept for the path's instance (the tree's own) while no demand comes or goes.
     */
    boolean greatestChargeFitsUnder(List<Node> path) {
        if (greatestChargeCheckedOn != path) {
            greatestChargeFits = Shortfall.fitsUnderMax(path, greatestCharge(), Map.of());
            greatestChargeCheckedOn = path;
        }
        return greatestChargeFits;
    }

    /** The least amount of the resource any of the queue's jobs asks, among those that ask some; null when none does. */
    BigDecimal leastAsked(String resource) {
        return leastAsked.computeIfAbsent(resource, name -> counts.keySet().stream().map(demand -> demand.amount(name))
                .filter(amount -> amount.signum() > 0).min(BigDecimal::compareTo)).orElse(null);
    }

    /** Whether this demand asks at most as much as that one of every resource (amounts are never negative). */
    private static boolean atMost(ResourceList demand, ResourceList other) {
        for (String resource : demand.names()) {
            if (demand.amount(resource).compareTo(other.amount(resource)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Counts the times a demand came or went: what was worked out from {@link #demands} holds while it stays. */
    int version() {
        return version;
    }

    private void demandsChanged() {
        version++;
        least = null;
        greatestCharge = null;
        greatestChargeCheckedOn = null;
        leastAsked.clear();
    }

    /**
     * Whether each of the queue's jobs was last told that a quota limit refuses it, and neither waits for a backoff nor
     * reclaims, or was never told anything, or was given back by placement and reclaims nothing, or reclaims and has no
     * backoff.
     */
    boolean allRefusedUntoldGivenBackOrReclaiming() {
        return toldOtherwise == 0;
    }

    /** The jobs that reclaim capacity and have no backoff, by UID. */
    Set<String> reclaimers() {
        return Collections.unmodifiableSet(reclaimers);
    }

    /** The jobs given back by placement that reclaim nothing, by UID. */
    Set<String> givenBack() {
        return Collections.unmodifiableSet(givenBack);
    }

    /** The jobs never told why they wait, by UID, in the order they came. */
    Set<String> untold() {
        return Collections.unmodifiableSet(untold);
    }

    private static boolean plainlyRefused(Wait wait) {
        return wait.waitingSince() != null && wait.notBefore() == null && wait.reclaiming().isEmpty() && QueuePass.isQuotaLimit(wait.reason());
    }

    private static boolean givenBack(Wait wait) {
        return wait.notBefore() != null && wait.reclaiming().isEmpty();
    }

    private static boolean reclaimer(Wait wait) {
        return wait.notBefore() == null && !wait.reclaiming().isEmpty();
    }

    private static boolean untold(Wait wait) {
        return wait.waitingSince() == null && wait.reason() == null && wait.notBefore() == null && wait.reclaiming().isEmpty();
    }
}
