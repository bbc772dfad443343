package dev.muster.gangfit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.reservation.Reservation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;

/** What a node has free, counting running pods and the reservations that hold capacity for pods still to come. */
class NodeStatesTest {

    private static final Node NODE = Serialization.unmarshal("""
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status:
              allocatable: {cpu: "8", pods: "110"}
              conditions: [{type: Ready, status: "True"}]
            """, Node.class);

    private static final Pod OWNER = Serialization.unmarshal("""
            apiVersion: v1
            kind: Pod
            metadata: {name: a, namespace: default}
            spec:
              nodeName: n1
              containers: [{name: c, resources: {requests: {cpu: "3"}}}]
            """, Pod.class);

    /** A reservation of 3 cpu for pod default/a on n1, in this phase, used by these pods. */
    private static Reservation reservation(String phase, String currentOwners) {
        return Serialization.unmarshal("""
                apiVersion: %s
                kind: Reservation
                metadata: {name: r, creationTimestamp: "2026-11-29T10:00:00Z"}
                spec:
                  template:
                    spec:
                      containers: [{name: c, resources: {requests: {cpu: "3"}}}]
                  owners: [{object: {namespace: default, name: a}}]
                  ttl: 10m
                status: {phase: %s, nodeName: n1, currentOwners: %s}
                """.formatted(Reservation.API_VERSION, phase, currentOwners), Reservation.class);
    }

    @Test
    void anAvailableReservationHoldsWhatItsOwnersDoNotYetUseAndIsNeverCountedTwice() {
        assertThat(NodeStates.of(List.of(NODE), List.of(), List.of(reservation(Reservation.AVAILABLE, "[]"))).get(0).free().amount("cpu"))
                .as("held, nobody using it").isEqualByComparingTo("5");
        assertThat(NodeStates.of(List.of(NODE), List.of(OWNER), List.of(reservation(Reservation.AVAILABLE, "[{namespace: default, name: a}]")))
                .get(0).free().amount("cpu")).as("its owner runs on it: the pod counts, the reservation no longer does").isEqualByComparingTo("5");
        assertThat(NodeStates.of(List.of(NODE), List.of(), List.of(reservation(Reservation.FAILED, "[]"))).get(0).free().amount("cpu"))
                .as("a failed reservation holds nothing").isEqualByComparingTo("8");
    }
}
