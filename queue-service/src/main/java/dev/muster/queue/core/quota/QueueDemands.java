package dev.muster.queue.core.quota;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

import dev.muster.model.resource.ResourceList;

/**
 * What the jobs waiting in one queue ask: how many ask each demand (by the instance the jobs of one demand share), and
 * how many were not plainly refused by a quota limit when last weighed (new, given back, reclaiming, never fitting, or
 * behind something else). A pass of a core that only has to say whom it admits ends once no demand of the queues left
 * fits and every job left was plainly refused ({@link PassEnd}).
 */
final class QueueDemands {

    static final QueueDemands NONE = new QueueDemands();

    private final Map<ResourceList, Integer> counts = new IdentityHashMap<>();
    private int notPlainlyRefused;

    void add(Wait wait) {
        counts.merge(wait.job().demand(), 1, Integer::sum);
        if (!plainlyRefused(wait)) {
            notPlainlyRefused++;
        }
    }

    /** @return whether no job is left */
    boolean remove(Wait wait) {
        counts.computeIfPresent(wait.job().demand(), (demand, count) -> count == 1 ? null : count - 1);
        if (!plainlyRefused(wait)) {
            notPlainlyRefused--;
        }
        return counts.isEmpty();
    }

    /** The distinct demands the queue's jobs ask, by instance. */
    Set<ResourceList> demands() {
        return Collections.unmodifiableSet(counts.keySet());
    }

    /** Whether each of the queue's jobs was last told that a quota limit refuses it, and neither waits for a backoff nor reclaims. */
    boolean allPlainlyRefused() {
        return notPlainlyRefused == 0;
    }

    private static boolean plainlyRefused(Wait wait) {
        return wait.waitingSince() != null && wait.notBefore() == null && wait.reclaiming().isEmpty() && QueuePass.isQuotaLimit(wait.reason());
    }
}
