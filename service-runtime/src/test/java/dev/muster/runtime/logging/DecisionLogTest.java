package dev.muster.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.job.ReplicaType;
import dev.muster.model.resource.ResourceList;

/** A decision's line carries what an operator filters on: the job, the event, and the queue, cluster or reason that apply. */
class DecisionLogTest {

    private static final JobRef JOB = new JobRef("team-a", "train", "uid-1");
    private static final Instant NOW = Instant.parse("2026-12-04T04:00:00Z");

    @Test
    void aQueuedJobsLineNamesItsQueueAndReason() {
        JobEvent queued = JobEvent.create("/queue", JOB, NOW, new JobQueued("root-team-a-x2k9p", "QuotaExceeded", "root/team-a: gpu 8/8", 3,
                ResourceList.empty()));

        assertThat(DecisionLog.fields(queued, "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")).isEqualTo(Map.of(
                "event", "dev.muster.job.queued", "job", "team-a/train", "queue", "root-team-a-x2k9p", "reason", "QuotaExceeded",
                "traceId", "0af7651916cd43dd8448eb211c80319c"));
    }

    @Test
    void aBindingNamesItsClusterAndARejectionItsReasons() {
        JobEvent bound = JobEvent.create("/placement", JOB, NOW, JobBound.of("gpu-a", null, Map.of(ReplicaType.MASTER, 1)));
        JobEvent rejected = JobEvent.create("/queue", JOB, NOW, new JobRejected(List.of("spec.replicas: too many", "name: too long")));

        assertThat(DecisionLog.fields(bound, null)).containsEntry("cluster", "gpu-a").doesNotContainKeys("queue", "reason", "traceId");
        assertThat(DecisionLog.fields(rejected, null)).containsEntry("reason", "spec.replicas: too many; name: too long");
    }
}
