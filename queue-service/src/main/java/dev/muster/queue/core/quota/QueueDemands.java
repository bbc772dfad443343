package dev.muster.queue.core.quota;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import dev.muster.model.resource.ResourceList;

/**
 * What the jobs waiting in one queue ask: how many ask each demand (by the instance the jobs of one demand share), which
 * were never told why they wait (new, or waiting afresh), and how many were told something else than that a quota limit
 * refuses them (given back, reclaiming, never fitting, or behind something else). A pass may end once no demand of the
 * queues left fits and no job left was told anything but a quota limit ({@link PassEnd}).
 */
final class QueueDemands {

    static final QueueDemands NONE = new QueueDemands();

    private final Map<ResourceList, Integer> counts = new IdentityHashMap<>();
    /** By UID, in the order they came. */
    private final Set<String> untold = new LinkedHashSet<>();
    private int toldOtherwise;

    void add(Wait wait) {
        counts.merge(wait.job().demand(), 1, Integer::sum);
        if (untold(wait)) {
            untold.add(wait.job().uid());
        } else if (!plainlyRefused(wait)) {
            toldOtherwise++;
        }
    }

    /** @return whether no job is left */
    boolean remove(Wait wait) {
        counts.computeIfPresent(wait.job().demand(), (demand, count) -> count == 1 ? null : count - 1);
        if (untold(wait)) {
            untold.remove(wait.job().uid());
        } else if (!plainlyRefused(wait)) {
            toldOtherwise--;
        }
        return counts.isEmpty();
    }

    /** The distinct demands the queue's jobs ask, by instance. */
    Set<ResourceList> demands() {
        return Collections.unmodifiableSet(counts.keySet());
    }

    /**
     * Whether each of the queue's jobs was either last told that a quota limit refuses it, and neither waits for a backoff
     * nor reclaims, or was never told anything.
     */
    boolean allRefusedOrUntold() {
        return toldOtherwise == 0;
    }

    /** The jobs never told why they wait, by UID, in the order they came. */
    Set<String> untold() {
        return Collections.unmodifiableSet(untold);
    }

    private static boolean plainlyRefused(Wait wait) {
        return wait.waitingSince() != null && wait.notBefore() == null && wait.reclaiming().isEmpty() && QueuePass.isQuotaLimit(wait.reason());
    }

    private static boolean untold(Wait wait) {
        return wait.waitingSince() == null && wait.reason() == null && wait.notBefore() == null && wait.reclaiming().isEmpty();
    }
}
