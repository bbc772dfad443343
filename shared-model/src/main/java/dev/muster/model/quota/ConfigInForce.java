package dev.muster.model.quota;

import java.time.Instant;
import java.util.List;

/**
 * The fleet configuration the queue service decides by, and the changes it refused: what {@code kubectl muster
 * queues} shows under the quota table.
 *
 * @param treeInForce the ElasticQuotaTree in force, as {@code namespace/name (resourceVersion N)}, or null for none
 * @param refused     the last refused change of each policy or tree still refused, oldest first
 */
public record ConfigInForce(String treeInForce, List<Refusal> refused) {

    public ConfigInForce {
        refused = refused == null ? List.of() : List.copyOf(refused);
    }

    /** One refused change: of which object, why, and when. */
    public record Refusal(String kind, String namespace, String name, List<String> reasons, Instant at) {
    }
}
