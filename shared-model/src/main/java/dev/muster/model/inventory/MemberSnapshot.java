package dev.muster.model.inventory;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What placement needs to know of one member cluster as a whole.
 *
 * @param reachable            its API answers
 * @param reservationSupported it serves koordinator's Reservation API (Kubernetes >= 1.28, scheduler >= 6.8.0)
 * @param labels               the cluster's own labels, for {@code clusterAffinity.labelSelector}
 * @param lastSeenHealthy      when it last answered, or null if never
 */
public record MemberSnapshot(String cluster, boolean reachable, boolean reservationSupported, Map<String, String> labels,
                             Instant lastSeenHealthy) {

    public MemberSnapshot {
        Objects.requireNonNull(cluster, "cluster");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
}
