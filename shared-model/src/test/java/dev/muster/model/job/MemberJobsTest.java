package dev.muster.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;

class MemberJobsTest {

    private static PyTorchJob fleetJob() {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: pytorch-test
                  namespace: default
                  uid: fleet-uid
                  resourceVersion: "7"
                  annotations:
                    kubectl.kubernetes.io/last-applied-configuration: "{}"
                spec:
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          containers:
                          - name: pytorch
                            image: pytorch
                status:
                  conditions:
                  - type: Queuing
                    status: "True"
                """, PyTorchJob.class);
    }

    @Test
    void theCopyCarriesItsOwnerGenerationAndFailoverPolicyButNoFleetStatus() {
        PyTorchJob copy = MemberJobs.forMember(fleetJob(), "fleet-uid", "pytorch-test-abc", 2,
                Optional.of(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY)));

        assertThat(MemberJobs.fleetUid(copy)).contains("fleet-uid");
        assertThat(MemberJobs.isOwnedBy(copy, "fleet-uid")).isTrue();
        assertThat(MemberJobs.generation(copy)).isEqualTo(2);
        assertThat(MemberJobs.failover(copy)).contains(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY));
        assertThat(copy.getMetadata().getUid()).isNull();
        assertThat(copy.getMetadata().getResourceVersion()).isNull();
        assertThat(copy.getMetadata().getAnnotations()).doesNotContainKey("kubectl.kubernetes.io/last-applied-configuration")
                .containsEntry(MemberJobs.RESERVATION, "pytorch-test-abc");
        assertThat(copy.getMetadata().getLabels()).containsEntry(MemberJobs.MIN_AVAILABLE, "2");
        assertThat(copy.getStatus()).isNull();
    }

    @Test
    void aCopyPlacedWithoutFailoverSaysSo() {
        PyTorchJob copy = MemberJobs.forMember(fleetJob(), "fleet-uid", null, 0, Optional.empty());

        assertThat(MemberJobs.failover(copy)).isEmpty();
        assertThat(MemberJobs.generation(copy)).isZero();
        assertThat(copy.getMetadata().getAnnotations()).doesNotContainKey(MemberJobs.RESERVATION);
    }

    @Test
    void theCopySaysWhichAdmissionItRunsUnderAndAFleetJobCannotSayItForIt() {
        PyTorchJob fleetJob = fleetJob();
        fleetJob.getMetadata().setAnnotations(Map.of(MemberJobs.ADMITTED_AT, "2030-01-01T00:00:00Z"));
        Instant admittedAt = Instant.parse("2026-12-04T17:07:18.094123Z");

        assertThat(MemberJobs.admittedAt(MemberJobs.forMember(fleetJob, "fleet-uid", null, 0, Optional.empty(), admittedAt))).contains(admittedAt);
        assertThat(MemberJobs.admittedAt(MemberJobs.forMember(fleetJob, "fleet-uid", null, 0, Optional.empty()))).isEmpty();
        assertThat(MemberJobs.admittedAt(fleetJobAnnotated("not a time"))).isEmpty();
    }

    private static PyTorchJob fleetJobAnnotated(String admittedAt) {
        PyTorchJob job = fleetJob();
        job.getMetadata().setAnnotations(Map.of(MemberJobs.ADMITTED_AT, admittedAt));
        return job;
    }

    @Test
    void aJobMusterDoesNotManageHasNoFleetUid() {
        PyTorchJob own = fleetJob();
        own.getMetadata().setLabels(Map.of(MemberJobs.FLEET_JOB_UID, "forged"));

        assertThat(MemberJobs.fleetUid(own)).isEmpty();
    }

    @Test
    void theStateIsTheLatestTrueCondition() {
        PyTorchJobStatus status = new PyTorchJobStatus(List.of(
                new JobCondition("Created", "True", null, null, null, null),
                new JobCondition("Running", "False", null, null, null, null),
                new JobCondition("Restarting", "True", null, null, null, null)), null, null, null, null, null);

        assertThat(status.currentCondition()).map(JobCondition::type).contains("Restarting");
        assertThat(status.isFinished()).isFalse();
        assertThat(new PyTorchJobStatus(null, null, null, null, null, null).currentCondition()).isEmpty();
        assertThat(Manifests.toJson(status)).doesNotContain("finished").doesNotContain("currentCondition");
    }
}
