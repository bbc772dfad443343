package dev.muster.statussync.core.inventory;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.muster.model.event.MemberEventData;
import dev.muster.model.event.MemberEventData.MemberReported;
import dev.muster.model.event.MemberEventData.NodeRemoved;
import dev.muster.model.event.MemberEventData.NodeReported;
import dev.muster.model.event.MemberEventData.PodRemoved;
import dev.muster.model.event.MemberEventData.PodReported;
import dev.muster.model.event.MemberEventData.ReservationRemoved;
import dev.muster.model.event.MemberEventData.ReservationReported;
import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;

/**
 * Turns what the watches of one member cluster observe into inventory reports, reporting only real changes:
 * an informer's resync, a status write that changes nothing placement reads (a condition's heartbeat), or
 * a re-list after a watch gap repeats objects unchanged, and those are not reported again; a removal is
 * reported only for what was reported. Thread-safe: the member's watches call it concurrently.
 */
public final class InventoryReporter {

    private final String cluster;
    private final Map<String, Object> reported = new HashMap<>();
    private MemberSnapshot member;

    public InventoryReporter(String cluster) {
        this.cluster = cluster;
    }

    public synchronized Optional<MemberEventData> member(MemberSnapshot snapshot) {
        boolean changed = member == null || member.reachable() != snapshot.reachable()
                || member.reservationSupported() != snapshot.reservationSupported() || !member.labels().equals(snapshot.labels());
        member = snapshot;
        return changed ? Optional.of(new MemberReported(snapshot)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> node(NodeSnapshot node) {
        return changed("node/" + node.name(), node) ? Optional.of(new NodeReported(cluster, node)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> nodeGone(String name) {
        return reported.remove("node/" + name) != null ? Optional.of(new NodeRemoved(cluster, name)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> pod(PodSnapshot pod) {
        return changed("pod/" + pod.key(), pod) ? Optional.of(new PodReported(cluster, pod)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> podGone(String namespace, String name) {
        return reported.remove("pod/" + namespace + "/" + name) != null ? Optional.of(new PodRemoved(cluster, namespace, name)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> reservation(ReservationSnapshot reservation) {
        return changed("reservation/" + reservation.name(), reservation)
                ? Optional.of(new ReservationReported(cluster, reservation)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> reservationGone(String name) {
        return reported.remove("reservation/" + name) != null ? Optional.of(new ReservationRemoved(cluster, name)) : Optional.empty();
    }

    private boolean changed(String key, Object snapshot) {
        Object previous = reported.put(key, snapshot);
        return !Objects.equals(previous, snapshot);
    }
}
