package dev.muster.placement.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.MemberEvent;
import dev.muster.model.event.MemberEventData;
import dev.muster.model.inventory.ReservationSnapshot;
import dev.muster.model.reservation.Reservation;
import dev.muster.model.resource.ResourceList;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class PlacementMetricsTest {

    @Test
    void failureReasonsBecomeAFewStableLabels() {
        assertThat(PlacementMetrics.category("no node has 8 nvidia.com/gpu free for pod j-worker-0 (largest free: 4 on node b-7)")).isEqualTo("no-node-fits");
        assertThat(PlacementMetrics.category("the gang needs 16 nvidia.com/gpu in all, the cluster has 14 free")).isEqualTo("not-enough-in-total");
        assertThat(PlacementMetrics.category("not in clusterAffinity.clusterNames [a]")).isEqualTo("cluster-affinity");
        assertThat(PlacementMetrics.category("the member's API is unreachable (last seen healthy 2026-11-29T11:59:00Z)")).isEqualTo("member-unreachable");
        assertThat(PlacementMetrics.category("reservations not confirmed within 30s")).isEqualTo("reservation-timeout");
        assertThat(PlacementMetrics.category("creating the job failed: Forbidden")).isEqualTo("member-refused");
        assertThat(PlacementMetrics.category("something new")).isEqualTo("other");
    }

    @Test
    void eachOfMustersReservationsThatFailsOnTheMemberCountsOnceAsExpired() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        PlacementMetrics metrics = new PlacementMetrics(registry);
        ReservationSnapshot ours = new ReservationSnapshot("j-uid1-worker-0", Reservation.FAILED, null, ResourceList.empty(), List.of(), "uid-1", List.of());
        ReservationSnapshot theirs = new ReservationSnapshot("someone-elses", Reservation.FAILED, null, ResourceList.empty(), List.of());

        for (ReservationSnapshot reservation : List.of(ours, ours, theirs)) {
            metrics.consumed(MemberEvent.create("/test", Instant.EPOCH, new MemberEventData.ReservationReported("gpu-a", reservation)));
        }

        assertThat(registry.get("muster.placement.reservations").tag("outcome", "expired").counter().count()).isEqualTo(1.0);
    }
}
