package dev.muster.model.reservation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.inventory.PodSnapshot;
import dev.muster.model.inventory.ReservationSnapshot;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;

class ReservationsTest {

    private static Reservation reservation(String cpu, ReservationOwner owner, String phase, String node, String... owners) {
        Reservation reservation = new Reservation();
        reservation.setMetadata(new ObjectMetaBuilder().withName("r").withCreationTimestamp("2026-11-29T10:00:00Z").build());
        reservation.setSpec(new ReservationSpec(new PodTemplateSpecBuilder().withNewSpec().addNewContainer().withName("c")
                .withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer().endSpec().build(),
                List.of(owner), "10m"));
        if (phase != null) {
            reservation.setStatus(new ReservationStatus(phase, null, node, null, null,
                    java.util.Arrays.stream(owners).map(name -> new ObjectReferenceBuilder().withNamespace("default").withName(name).build()).toList(),
                    null));
        }
        return reservation;
    }

    private static Pod pod(String name, String cpu, String node, Map<String, String> labels) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withLabels(labels)
                .addNewOwnerReference().withKind("PyTorchJob").withName("job").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withNewResources()
                .withRequests(Map.of("cpu", new Quantity(cpu))).endResources().endContainer().endSpec().build();
    }

    @Test
    void ownersMatchByObjectControllerOrLabels() {
        Pod pod = pod("job-worker-0", "1", null, Map.of("job", "job"));
        assertThat(Reservations.isOwnedBy(reservation("1", ReservationOwner.pod("default", "job-worker-0"), null, null), pod)).isTrue();
        assertThat(Reservations.isOwnedBy(reservation("1", ReservationOwner.pod("other", "job-worker-0"), null, null), pod)).isFalse();
        assertThat(Reservations.isOwnedBy(reservation("1", ReservationOwner.labels(Map.of("job", "job")), null, null), pod)).isTrue();
        assertThat(Reservations.isOwnedBy(reservation("1", ReservationOwner.labels(Map.of("job", "else")), null, null), pod)).isFalse();
        ReservationOwner controller = new ReservationOwner(null,
                new ObjectReferenceBuilder().withKind("PyTorchJob").withName("job").withNamespace("default").build(), null, null);
        assertThat(Reservations.isOwnedBy(reservation("1", controller, null, null), pod)).isTrue();
    }

    @Test
    void anAvailableReservationHoldsWhatItsOwnersDoNotYetUse() {
        Reservation waiting = reservation("3", ReservationOwner.pod("default", "a"), Reservation.AVAILABLE, "n1");
        Pod owner = pod("a", "3", "n1", Map.of());
        Reservation used = reservation("3", ReservationOwner.pod("default", "a"), Reservation.AVAILABLE, "n1", "a");

        // The owner pod runs on it: the pod counts, the reservation no longer does (a node's free capacity: gang-fit's NodeStatesTest).
        assertThat(ReservationSnapshot.of(used).held(Map.of("default/a", PodSnapshot.of(owner))).amount("cpu")).isEqualByComparingTo("0");
        assertThat(ReservationSnapshot.of(waiting).held(Map.of()).amount("cpu")).isEqualByComparingTo("3");
    }

    @Test
    void aSnapshotSaysWhichFleetJobMusterMadeTheReservationFor() {
        Reservation ours = reservation("1", ReservationOwner.pod("default", "a"), Reservation.AVAILABLE, "n1");
        ours.getMetadata().setLabels(Map.of(dev.muster.model.job.MemberJobs.MANAGED_BY, "muster", dev.muster.model.job.MemberJobs.FLEET_JOB_UID, "uid-1"));
        Reservation theirs = reservation("1", ReservationOwner.pod("default", "a"), Reservation.AVAILABLE, "n1");

        assertThat(ReservationSnapshot.of(ours).fleetJobUid()).isEqualTo("uid-1");
        assertThat(ReservationSnapshot.of(theirs).fleetJobUid()).isNull();
    }

    @Test
    void expiryIsCreationPlusTtlOrTheExplicitTime() {
        Reservation reservation = reservation("1", ReservationOwner.pod("default", "a"), null, null);
        assertThat(Reservations.expiry(reservation)).contains(Instant.parse("2026-11-29T10:10:00Z"));
        reservation.setSpec(new ReservationSpec(reservation.getSpec().template(), reservation.getSpec().owners(), null,
                "2026-11-30T00:00:00Z", null, null));
        assertThat(Reservations.expiry(reservation)).contains(Instant.parse("2026-11-30T00:00:00Z"));
        reservation.setSpec(new ReservationSpec(reservation.getSpec().template(), reservation.getSpec().owners(), null));
        assertThat(Reservations.expiry(reservation)).contains(Instant.parse("2026-11-30T10:00:00Z"));
        reservation.setSpec(new ReservationSpec(reservation.getSpec().template(), reservation.getSpec().owners(), "later"));
        assertThat(Reservations.expiry(reservation)).isEmpty();
    }
}
