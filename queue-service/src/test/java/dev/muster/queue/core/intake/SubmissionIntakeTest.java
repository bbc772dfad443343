package dev.muster.queue.core.intake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.resource.ResourceList;

class SubmissionIntakeTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:00:00Z"), ZoneOffset.UTC);
    private static final JobRef JOB = new JobRef("default", "pytorch-test", "uid-1");

    private final SubmissionIntake intake = new SubmissionIntake(CLOCK);

    static PyTorchJob seedJob() throws IOException {
        try (InputStream in = SubmissionIntakeTest.class.getResourceAsStream("/pytorch-job.yaml")) {
            return Manifests.read(new String(in.readAllBytes(), StandardCharsets.UTF_8), PyTorchJob.class);
        }
    }

    private static JobEvent submitted(PyTorchJob job) {
        return JobEvent.create("/client", JOB, CLOCK.instant(), new JobSubmitted(job));
    }

    @Test
    void aValidJobWithNoQuotaLeafIsHeldWithTheReasonAndItsDemand() throws IOException {
        List<JobEvent> decisions = intake.handle(submitted(seedJob()));

        assertThat(decisions).singleElement().satisfies(event -> {
            assertThat(event.source()).isEqualTo(SubmissionIntake.SOURCE);
            assertThat(event.job()).isEqualTo(JOB);
            assertThat(event.time()).isEqualTo(CLOCK.instant());
            assertThat(event.data()).isEqualTo(new JobQueued(null, "NoQuotaForNamespace",
                    "namespace \"default\" is bound to no quota leaf of the ElasticQuotaTree", null,
                    ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi"))));
        });
    }

    @Test
    void anInvalidJobIsRejectedWithEveryReason() throws IOException {
        PyTorchJob job = seedJob();
        PyTorchJob invalid = Manifests.read(Manifests.toYaml(job).replace("replicas: 2", "replicas: -1")
                .replace("cpu: \"10m\"", "cpu: two").replace("cpu: 10m", "cpu: two"), PyTorchJob.class);

        List<JobEvent> decisions = intake.handle(submitted(invalid));

        assertThat(decisions).singleElement().extracting(JobEvent::data).isEqualTo(new JobRejected(List.of(
                "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.requests.cpu: cannot parse quantity \"two\"",
                "spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1")));
    }

    @Test
    void aSubmissionWithoutItsManifestIsRejected() {
        assertThat(intake.handle(submitted(null))).singleElement().extracting(JobEvent::data)
                .isEqualTo(new JobRejected(List.of("data.job: is required")));
    }

    @Test
    void theSameSubmissionAlwaysLeadsToTheSameDecisionId() throws IOException {
        JobEvent submission = submitted(seedJob());

        assertThat(intake.handle(submission).get(0).id()).isEqualTo(intake.handle(submission).get(0).id());
    }

    @Test
    void otherEventsLeadToNothingYet() {
        assertThat(intake.handle(JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null)))).isEmpty();
    }
}
