package dev.muster.queue.core.quota;

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
 */
final class Holds {

    static final Holds NONE = new Holds();

    private final Map<String, ResourceList> held = new HashMap<>();
    private final Map<String, Set<String>> starving = new HashMap<>();
    private final Map<String, Set<String>> reclaimers = new HashMap<>();

    void hold(List<Node> path, QuotaJob job, boolean isStarving) {
        for (Node node : path) {
            held.merge(node.name(), job.charge(), ResourceList::plus);
            (isStarving ? starving : reclaimers).computeIfAbsent(node.name(), name -> new LinkedHashSet<>()).add(job.ref());
        }
    }

    /** Takes back what {@link #hold} held for a reclaimer, so that it is weighed without its own hold. */
    void release(List<Node> path, QuotaJob job) {
        for (Node node : path) {
            held.merge(node.name(), job.charge(), ResourceList::minus);
            Set<String> holders = reclaimers.get(node.name());
            if (holders != null) {
                holders.remove(job.ref());
            }
        }
    }

    ResourceList heldAt(String node) {
        return held.getOrDefault(node, ResourceList.empty());
    }

    Set<String> starvingAt(String node) {
        return starving.getOrDefault(node, Set.of());
    }

    Set<String> reclaimersAt(String node) {
        return reclaimers.getOrDefault(node, Set.of());
    }
}
