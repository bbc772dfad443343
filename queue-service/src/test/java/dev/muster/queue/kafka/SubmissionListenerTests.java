package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.Topics;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.intake.SubmissionIntake;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.service.ServiceHealthContract;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
class SubmissionListenerTests extends ServiceHealthContract {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @InjectKafkaBroker
    KafkaBroker broker;

    @ConfigProperty(name = "mp.messaging.incoming.submissions.topic")
    String submissionsTopic;

    @ConfigProperty(name = "mp.messaging.outgoing.admissions.topic")
    String admissionsTopic;

    private static JobEvent submission(String name, PyTorchJob job) {
        return JobEvent.create("/test-client", new JobRef("default", name, UUID.randomUUID().toString()), Instant.now(), new JobSubmitted(job));
    }

    private static PyTorchJob seedJob(String name) throws Exception {
        PyTorchJob job = Manifests.read(new String(SubmissionListenerTests.class.getResourceAsStream("/pytorch-job.yaml").readAllBytes(),
                StandardCharsets.UTF_8), PyTorchJob.class);
        job.getMetadata().setName(name);
        return job;
    }

    @Test
    void theChannelsUseTheSharedTopicNames() {
        assertThat(submissionsTopic).isEqualTo(Topics.SUBMISSIONS);
        assertThat(admissionsTopic).isEqualTo(Topics.ADMISSIONS);
    }

    @Test
    void aSubmittedSeedJobIsQueuedWithItsReasonAndDemandOverTheBroker() throws Exception {
        JobEvent submitted = submission("pytorch-test", seedJob("pytorch-test"));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.SUBMISSIONS, submitted);

            JobEvent queued = client.await(Topics.ADMISSIONS, event -> event.job().equals(submitted.job()), DEADLINE);

            assertThat(queued.source()).isEqualTo(SubmissionIntake.SOURCE);
            assertThat(queued.data()).isInstanceOfSatisfying(JobQueued.class, data -> {
                assertThat(data.reason()).isEqualTo("NoQuotaForNamespace");
                assertThat(data.demand()).isEqualTo(ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi")));
            });
        }
    }

    @Test
    void decisionsResumeAfterTheBrokerCrashesAndComesBack() throws Exception {
        JobEvent beforeCrash = submission("before-crash", seedJob("before-crash"));
        JobEvent afterCrash = submission("after-crash", seedJob("after-crash"));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.SUBMISSIONS, beforeCrash);
            client.await(Topics.ADMISSIONS, event -> event.job().equals(beforeCrash.job()), DEADLINE);

            broker.kill();
            broker.startAgain();
            client.send(Topics.SUBMISSIONS, afterCrash);

            client.await(Topics.ADMISSIONS, event -> event.job().equals(afterCrash.job()), Duration.ofSeconds(60));
            // Exactly once across the crash: the decision made before it is not made again.
            assertThat(client.readAll(Topics.ADMISSIONS)).filteredOn(event -> event.job().equals(beforeCrash.job())).hasSize(1);
        }
    }

    @Test
    void anUnreadableRecordIsDeadLetteredAndTheNextSubmissionIsStillDecided() throws Exception {
        PyTorchJob invalid = seedJob("bad-replicas");
        invalid.getSpec().pytorchReplicaSpecs().put("Worker", new dev.muster.model.job.ReplicaSpec(-1, "OnFailure",
                invalid.getSpec().pytorchReplicaSpecs().get("Worker").template()));
        JobEvent afterGarbage = submission("bad-replicas", invalid);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.sendRaw(Topics.SUBMISSIONS, "garbage-key", "this is not an event".getBytes(StandardCharsets.UTF_8));
            client.send(Topics.SUBMISSIONS, afterGarbage);

            DeadLetter letter = client.awaitDeadLetter(Topics.DEAD_LETTER, dead -> "garbage-key".equals(dead.key()), DEADLINE);
            JobEvent rejected = client.await(Topics.ADMISSIONS, event -> event.job().equals(afterGarbage.job()), DEADLINE);

            assertThat(letter.reason()).startsWith("not JSON: ");
            assertThat(letter.payload()).isEqualTo("this is not an event");
            assertThat(letter.service()).isEqualTo("queue-service");
            assertThat(rejected.data()).isEqualTo(new JobRejected(List.of("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1")));
        }
    }
}
