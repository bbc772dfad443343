package dev.muster.model.event;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.inventory.NodeSnapshot;
import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;

/** What was observed on a member cluster: the {@code data} of a {@link MemberEvent}. */
public sealed interface MemberEventData {

    /** The member cluster's name. */
    String cluster();

    /** {@code <cluster>/<kind>/<name>} of what was observed. */
    String subject();

    String summary();

    /** The member's reachability, reservation support and labels. */
    record MemberReported(MemberSnapshot member) implements MemberEventData {
        @Override
        public String cluster() {
            return member.cluster();
        }

        @Override
        public String subject() {
            return member.cluster();
        }

        @Override
        public String summary() {
            return member.reachable() ? "reachable" : "unreachable since " + member.lastSeenHealthy();
        }
    }

    /** The member left the fleet: it is no longer watched, and nothing is to be placed on it. */
    record MemberRemoved(String cluster) implements MemberEventData {
        @Override
        public String subject() {
            return cluster;
        }

        @Override
        public String summary() {
            return "removed from the fleet";
        }
    }

    /** A node as it is now. */
    record NodeReported(String cluster, NodeSnapshot node) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/node/" + node.name();
        }

        @Override
        public String summary() {
            return "node " + node.name() + (node.ready() ? " Ready" : " NotReady") + (node.unschedulable() ? ", cordoned" : "");
        }
    }

    /** A node left the cluster. */
    record NodeRemoved(String cluster, String node) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/node/" + node;
        }

        @Override
        public String summary() {
            return "node " + node + " removed";
        }
    }

    /** A pod as it is now. */
    record PodReported(String cluster, PodSnapshot pod) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/pod/" + pod.key();
        }

        @Override
        public String summary() {
            return "pod " + pod.key() + (pod.node() == null ? " pending" : " on " + pod.node()) + (pod.finished() ? ", finished" : "");
        }
    }

    /** A pod was deleted. */
    record PodRemoved(String cluster, String namespace, String name) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/pod/" + namespace + "/" + name;
        }

        @Override
        public String summary() {
            return "pod " + namespace + "/" + name + " removed";
        }
    }

    /** A reservation as it is now. */
    record ReservationReported(String cluster, ReservationSnapshot reservation) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/reservation/" + reservation.name();
        }

        @Override
        public String summary() {
            return "reservation " + reservation.name() + " " + reservation.phase() + (reservation.node() == null ? "" : " on " + reservation.node());
        }
    }

    /** A reservation was deleted. */
    record ReservationRemoved(String cluster, String reservation) implements MemberEventData {
        @Override
        public String subject() {
            return cluster + "/reservation/" + reservation;
        }

        @Override
        public String summary() {
            return "reservation " + reservation + " removed";
        }
    }
}
