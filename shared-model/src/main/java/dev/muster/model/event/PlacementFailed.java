package dev.muster.model.event;

import java.util.Map;
import java.util.TreeMap;

/**
 * The job fits on no member cluster now; it is retried when inventory changes.
 *
 * @param clusterReasons why each cluster cannot take it, e.g. {@code cluster-b → no node has 8 nvidia.com/gpu free}
 * @param message        a summary for a person
 */
public record PlacementFailed(Map<String, String> clusterReasons, String message) implements JobEventData {

    public PlacementFailed {
        clusterReasons = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(clusterReasons));
    }

    @Override
    public String summary() {
        return "placement failed: " + message + (clusterReasons.isEmpty() ? "" : " " + clusterReasons);
    }
}
