package dev.muster.statussync.core.inventory;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

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
 * <p>
 * What an earlier watch of the member reported (another instance's, before a restart or a takeover) and the member no
 * longer shows is reported gone once this watch has listed it ({@link #goneSince}): its removal happened while nobody
 * watched, and placement would count it for good.
 */
public final class InventoryReporter {

    public static final String NODE = "node";
    public static final String POD = "pod";
    public static final String RESERVATION = "reservation";

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
        return changed(nodeKey(node.name()), node) ? Optional.of(new NodeReported(cluster, node)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> nodeGone(String name) {
        return reported.remove(nodeKey(name)) != null ? Optional.of(new NodeRemoved(cluster, name)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> pod(PodSnapshot pod) {
        return changed(podKey(pod.namespace(), pod.name()), pod) ? Optional.of(new PodReported(cluster, pod)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> podGone(String namespace, String name) {
        return reported.remove(podKey(namespace, name)) != null ? Optional.of(new PodRemoved(cluster, namespace, name)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> reservation(ReservationSnapshot reservation) {
        return changed(reservationKey(reservation.name()), reservation)
                ? Optional.of(new ReservationReported(cluster, reservation)) : Optional.empty();
    }

    public synchronized Optional<MemberEventData> reservationGone(String name) {
        return reported.remove(reservationKey(name)) != null ? Optional.of(new ReservationRemoved(cluster, name)) : Optional.empty();
    }

    /**
     * Reports gone each object of one kind an earlier watch reported that the member does not show now and this watch has
     * not reported: call once the kind's watch has listed the member. Reports are handed on before the lock is let go, so
     * that an object the member shows again later is reported after its removal, never before.
     *
     * @param reportedBefore what the inventory topic says the member holds ({@link ReportedInventory})
     * @param kind           {@code node}, {@code pod} or {@code reservation}
     * @param shown          the keys of that kind the member shows now
     * @return how many were reported gone
     */
    public synchronized int goneSince(Set<String> reportedBefore, String kind, Set<String> shown, Consumer<MemberEventData> report) {
        int gone = 0;
        for (String key : reportedBefore) {
            if (!key.startsWith(kind + "/") || shown.contains(key) || reported.containsKey(key)) {
                continue;
            }
            String name = key.substring(kind.length() + 1);
            report.accept(switch (kind) {
                case NODE -> new NodeRemoved(cluster, name);
                case POD -> new PodRemoved(cluster, name.substring(0, name.indexOf('/')), name.substring(name.indexOf('/') + 1));
                case RESERVATION -> new ReservationRemoved(cluster, name);
                default -> throw new IllegalArgumentException("no inventory kind " + kind);
            });
            gone++;
        }
        return gone;
    }

    public static String nodeKey(String name) {
        return NODE + "/" + name;
    }

    public static String podKey(String namespace, String name) {
        return POD + "/" + namespace + "/" + name;
    }

    public static String reservationKey(String name) {
        return RESERVATION + "/" + name;
    }

    private boolean changed(String key, Object snapshot) {
        Object previous = reported.put(key, snapshot);
        return !Objects.equals(previous, snapshot);
    }
}
