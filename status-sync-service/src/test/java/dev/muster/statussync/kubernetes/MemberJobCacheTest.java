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
import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
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

    /** The job as the informer reads it: raw. */
    private static GenericKubernetesResource raw(PyTorchJob job) {
        return MusterJson.json().convertValue(job, GenericKubernetesResource.class);
    }

    /** What status sync reads of a raw job. */
    private static PyTorchJob typed(GenericKubernetesResource job) {
        return MemberJobCache.typed(job).orElseThrow();
    }

    @Test
    void whatStatusSyncReadsOfAKeptJobIsWhatItReadsOfTheJob() {
        PyTorchJob copy = runningCopy();
        PyTorchJob kept = typed(MemberJobCache.reduced(raw(copy)));

        assertThat(MemberCopy.of("gpu-a", kept)).isEqualTo(MemberCopy.of("gpu-a", copy)).isPresent();
        assertThat(MemberCopy.of("gpu-a", kept).orElseThrow().failover()).isPresent();
        assertThat(MemberCopy.of("gpu-a", kept).orElseThrow().generation()).isEqualTo(2);
        assertThat(MemberJobRow.of("gpu-a", kept)).isEqualTo(MemberJobRow.of("gpu-a", copy));
        assertThat(MemberJobs.fleetUid(kept)).hasValue("7d1c");
        assertThat(kept.getMetadata().getResourceVersion()).isEqualTo("17");
    }

    @Test
    void aKeptJobLeavesOutItsPodTemplates() {
        GenericKubernetesResource copy = raw(runningCopy());

        GenericKubernetesResource kept = MemberJobCache.reduced(copy);

        assertThat(kept.getAdditionalProperties()).containsOnlyKeys("status");
        assertThat(JSON.asJson(kept).length()).isLessThan(JSON.asJson(copy).length() / 2);
        assertThat(copy.getAdditionalProperties()).as("the job given is left as it was").containsKey("spec");
    }

    @Test
    void aJobIsKeptByNamespaceAndNameAsTheInformerLooksItUp() {
        MemberJobCache cache = new MemberJobCache();
        GenericKubernetesResource copy = raw(runningCopy());

        cache.put(cache.getKey(copy), copy);

        assertThat(cache.getKey(copy)).isEqualTo("default/pytorch-test");
        assertThat(typed(cache.get("default/pytorch-test")).getStatus()).isEqualTo(runningCopy().getStatus());
        assertThat(cache.remove("default/pytorch-test")).isNotNull();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aJobWhoseStatusCannotBeReadIsSaidSoNotThrown() {
        GenericKubernetesResource job = raw(runningCopy());
        job.setAdditionalProperty("status", java.util.Map.of("conditions", "not a list"));

        assertThat(MemberJobCache.typed(job)).isEmpty();
        assertThat(MemberJobCache.reduced(job).getMetadata().getName()).isEqualTo("pytorch-test");
    }
}
