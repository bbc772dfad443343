package dev.muster.statussync.core.inventory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MemberEventData.MemberRemoved;
import dev.muster.model.event.MemberEventData.NodeRemoved;
import dev.muster.model.event.MemberEventData.NodeReported;
import dev.muster.model.event.MemberEventData.PodRemoved;
import dev.muster.model.event.MemberEventData.PodReported;
import dev.muster.model.event.MemberEventData.ReservationRemoved;
import dev.muster.model.event.MemberEventData.ReservationReported;

/**
 * What the inventory topic says each member holds, folded from its reports in order: what placement, which reads the
 * topic from its beginning, believes is there. An object removed while no status sync watched its member (killed,
 * restarting, taking over) is never reported gone by the watch that follows, which does not know it was reported; this
 * is how that watch learns what was.
 */
public final class ReportedInventory {

    private final Map<String, Set<String>> keysByCluster = new HashMap<>();

    /** One report, in the topic's order. */
    public void apply(MemberEventData report) {
        if (report instanceof MemberRemoved removed) {
            keysByCluster.remove(removed.cluster());
        } else if (report instanceof NodeReported node) {
            keys(node.cluster()).add(InventoryReporter.nodeKey(node.node().name()));
        } else if (report instanceof NodeRemoved node) {
            keys(node.cluster()).remove(InventoryReporter.nodeKey(node.node()));
        } else if (report instanceof PodReported pod) {
            keys(pod.cluster()).add(InventoryReporter.podKey(pod.pod().namespace(), pod.pod().name()));
        } else if (report instanceof PodRemoved pod) {
            keys(pod.cluster()).remove(InventoryReporter.podKey(pod.namespace(), pod.name()));
        } else if (report instanceof ReservationReported reservation) {
            keys(reservation.cluster()).add(InventoryReporter.reservationKey(reservation.reservation().name()));
        } else if (report instanceof ReservationRemoved reservation) {
            keys(reservation.cluster()).remove(InventoryReporter.reservationKey(reservation.reservation()));
        }
    }

    /** The objects the topic says the member holds, as {@link InventoryReporter} keys them. */
    public Set<String> of(String cluster) {
        return Set.copyOf(keysByCluster.getOrDefault(cluster, Set.of()));
    }

    private Set<String> keys(String cluster) {
        return keysByCluster.computeIfAbsent(cluster, ignored -> new HashSet<>());
    }
}
