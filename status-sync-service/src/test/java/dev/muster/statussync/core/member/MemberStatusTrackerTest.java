package dev.muster.statussync.core.member;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.job.ReplicaType;

class MemberStatusTrackerTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:00:00Z"), ZoneOffset.UTC);
    private static final JobRef JOB = new JobRef("default", "pytorch-test", "uid-1");

    private final MemberStatusTracker tracker = new MemberStatusTracker(Set.of("cluster-a")::contains, CLOCK);

    private static JobEvent boundTo(String cluster) {
        return JobEvent.create("/muster/placement-service", JOB, CLOCK.instant(),
                JobBound.of(cluster, null, Map.of(ReplicaType.MASTER, 1, ReplicaType.WORKER, 2)));
    }

    @Test
    void aJobBoundToAClusterWithoutKubeconfigIsReportedUnknown() {
        assertThat(tracker.handle(boundTo("cluster-b"))).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(MemberStatusTracker.SOURCE);
            assertThat(event.data()).isEqualTo(new MemberStatusChanged("cluster-b", "Unknown", "MemberNotConfigured",
                    "member cluster \"cluster-b\" has no kubeconfig (muster.status-sync.members or the members directory); its jobs cannot be observed", null));
        });
    }

    @Test
    void aJobBoundToAWatchedClusterIsLeftToItsWatch() {
        assertThat(tracker.handle(boundTo("cluster-a"))).isEmpty();
    }

    @Test
    void otherPlacementEventsLeadToNothing() {
        assertThat(tracker.handle(JobEvent.create("/x", JOB, CLOCK.instant(), new PlacementFailed(Map.of(), "none")))).isEmpty();
    }
}
