package dev.muster.statussync.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.statussync.core.mirror.MemberCopy;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

class MemberJobCacheTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    /** A running member copy as placement creates it and the member's operator reports it. */
    private static PyTorchJob runningCopy() {
        PyTorchJob fleetJob = Seed.job("default", "pytorch-test");
        PyTorchJob copy = MemberJobs.forMember(fleetJob, "7d1c", null, 2,
                Optional.of(new FailoverPolicy(Duration.ofSeconds(300), PurgeMode.IMMEDIATELY)));
        copy.getMetadata().setUid("c0fe");
        copy.getMetadata().setResourceVersion("17");
        copy.getMetadata().setCreationTimestamp("2026-11-30T10:00:00Z");
        copy.setStatus(new PyTorchJobStatus(List.of(new JobCondition("Running", "True", "PyTorchJobRunning", "running",
                "2026-11-30T10:00:05Z", "2026-11-30T10:00:05Z")), null, null, null, "2026-11-30T10:00:05Z", null));
        return copy;
    }

    @Test
    void whatStatusSyncReadsOfAKeptJobIsWhatItReadsOfTheJob() {
        PyTorchJob copy = runningCopy();
        PyTorchJob kept = MemberJobCache.reduced(copy);

        assertThat(MemberCopy.of("gpu-a", kept)).isEqualTo(MemberCopy.of("gpu-a", copy)).isPresent();
        assertThat(MemberCopy.of("gpu-a", kept).orElseThrow().failover()).isPresent();
        assertThat(MemberCopy.of("gpu-a", kept).orElseThrow().generation()).isEqualTo(2);
        assertThat(MemberJobRow.of("gpu-a", kept)).isEqualTo(MemberJobRow.of("gpu-a", copy));
        assertThat(MemberJobs.fleetUid(kept)).hasValue("7d1c");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("17");
    }

    @Test
    void aKeptJobLeavesOutItsPodTemplates() {
        PyTorchJob copy = runningCopy();

        PyTorchJob kept = MemberJobCache.reduced(copy);

        assertThat(kept.getSpec()).isNull();
        assertThat(JSON.asJson(kept).length()).isLessThan(JSON.asJson(copy).length() / 2);
        assertThat(copy.getSpec()).as("the job given is left as it was").isNotNull();
    }

    @Test
    void aJobIsKeptByNamespaceAndNameAsTheInformerLooksItUp() {
        MemberJobCache cache = new MemberJobCache();
        PyTorchJob copy = runningCopy();

        cache.put(cache.getKey(copy), copy);

        assertThat(cache.getKey(copy)).isEqualTo("default/pytorch-test");
        assertThat(cache.get("default/pytorch-test").getStatus()).isEqualTo(copy.getStatus());
        assertThat(cache.remove("default/pytorch-test")).isNotNull();
        assertThat(cache.size()).isZero();
    }
}
