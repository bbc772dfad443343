package dev.muster.placement.core.inventory;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;

import dev.muster.model.resource.ResourceList;

/**
 * The requests of the unfinished pods bound to one node, kept as pods come and go rather than summed again at
 * each change: the sum a change costs is then the pod's, not the node's (a node can carry hundreds of pods).
 * It equals summing the pods present, resource names included: a resource is named while a pod names it.
 */
final class NodeUsage {

    private final Map<String, BigDecimal> amounts = new HashMap<>();
    /** How many of the counted pods name each resource. */
    private final Map<String, Integer> namedBy = new HashMap<>();
    private int pods;

    void add(ResourceList request) {
        pods++;
        for (String name : request.names()) {
            amounts.merge(name, request.amount(name), BigDecimal::add);
            namedBy.merge(name, 1, Integer::sum);
        }
    }

    void remove(ResourceList request) {
        pods--;
        for (String name : request.names()) {
            if (namedBy.merge(name, -1, Integer::sum) == 0) {
                namedBy.remove(name);
                amounts.remove(name);
            } else {
                amounts.merge(name, request.amount(name).negate(), BigDecimal::add);
            }
        }
    }

    boolean isEmpty() {
        return pods == 0;
    }

    ResourceList used() {
        ResourceList used = ResourceList.empty();
        for (Map.Entry<String, BigDecimal> amount : amounts.entrySet()) {
            used = used.with(amount.getKey(), amount.getValue());
        }
        return used;
    }
}
