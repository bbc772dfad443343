package dev.muster.placement.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

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
}
