package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.Topics;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerExtension;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceProcess;

/**
 * The packaged queue service is killed between two events and started again: it rebuilds its queue from
 * Kafka alone and decides exactly as a service that never stopped would.
 */
@FaultTier
@ExtendWith(KafkaBrokerExtension.class)
class QueueServiceRestartIT {

    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String GROUP = "muster-queue-service";



    @Test
    void aKilledQueueServiceRestoresItsQueueFromKafkaAndDecidesAsIfItNeverStopped(KafkaBroker broker) throws Exception {
        MusterTopics.create(broker, 3);
        JobEvent first = Seed.submission("default", "pytorch-test");
        JobEvent second = Seed.submission("default", "pytorch-test-2");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess service = ServiceProcess.start(JAR, Map.of("kafka.bootstrap.servers", broker.bootstrapServers(),
                     "muster.queue.fleet-api.watch", "false"), DEADLINE)) {
            client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
            // Jobs are keyed apart, so on different partitions: submit the second once the first is decided, as the seed does.
            client.send(Topics.SUBMISSIONS, first);
            client.await(Topics.ADMISSIONS, event -> event.job().equals(first.job()) && event.data() instanceof JobAdmitted, DEADLINE);
            client.send(Topics.SUBMISSIONS, second);
            client.await(Topics.ADMISSIONS, event -> event.job().equals(second.job()) && event.data() instanceof JobQueued, DEADLINE);

            service.kill();
            client.send(Topics.MEMBER_STATUS, JobEvent.create("/test", first.job(), Instant.now(), new JobFinished("cluster-a", "Succeeded", null)));
            service.startAgain(DEADLINE);

            client.await(Topics.ADMISSIONS, event -> event.job().equals(second.job()) && event.data() instanceof JobAdmitted, DEADLINE);
            List<JobEvent> decisions = client.readAll(Topics.ADMISSIONS);
            assertThat(decisions).filteredOn(event -> event.job().equals(first.job())).extracting(event -> event.data().getClass().getSimpleName())
                    .as("the first job's decisions; service log %s", service.log()).containsExactly("JobAdmitted");
            assertThat(decisions).filteredOn(event -> event.job().equals(second.job())).extracting(event -> event.data().getClass().getSimpleName())
                    .containsExactly("JobQueued", "JobAdmitted");
        }
    }

    /**
     * A broker can hand a group committed offsets older than the service's state (a long storm saw placement's go back 14
     * minutes across a broker restart): the service must not decide again what its state says it decided. Here a job is
     * admitted and deleted, the group is sent back to the beginning, and the queue, started again, decides nothing about
     * it a second time.
     */
    @Test
    void aGroupSentBackToTheBeginningDoesNotMakeTheQueueDecideAgainOnAJobThatWasDeleted() throws Exception {
        JobEvent job = Seed.submission("default", "pytorch-test");
        List<String> inputs = List.of(Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.MEMBER_STATUS, Topics.PLACEMENTS);
        // A broker of its own: the quota leaf runs one job at a time, and the other test leaves one running.
        try (KafkaBroker broker = KafkaBroker.start()) {
            MusterTopics.create(broker, 3);
            rewoundGroup(broker, job, inputs);
        }
    }

    private static void rewoundGroup(KafkaBroker broker, JobEvent job, List<String> inputs) throws Exception {
        // One record a batch, as a long backlog is read: in one batch the deletion read again would hide the admission.
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess service = ServiceProcess.start(JAR, Map.of("kafka.bootstrap.servers", broker.bootstrapServers(),
                     "muster.queue.fleet-api.watch", "false", "mp.messaging.incoming.inputs.max.poll.records", "1"), DEADLINE)) {
            client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
            client.send(Topics.SUBMISSIONS, job);
            client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobAdmitted, DEADLINE);
            // Deleted: the queue forgets it, name and all, as it must for the name to be used again. (No end on the member
            // status topic: read again before the submission, an end would hide the replay, and the order across topics is free.)
            client.send(Topics.SUBMISSIONS, JobEvent.create("/test", job.job(), Instant.now(), new JobDeleted("done with it")));
            await("the queue has read the job's deletion").atMost(DEADLINE).until(() -> broker.groupReadToTheEnd(GROUP, inputs));

            service.kill();
            broker.rewindGroup(GROUP, inputs, DEADLINE);
            service.startAgain(DEADLINE);
            await("the queue has read its inputs again to their end").atMost(DEADLINE).until(() -> broker.groupReadToTheEnd(GROUP, inputs));

            assertThat(client.readAll(Topics.ADMISSIONS)).filteredOn(event -> event.job().equals(job.job()))
                    .extracting(event -> event.data().getClass().getSimpleName())
                    .as("the job's decisions; service log %s", service.log()).containsExactly("JobAdmitted", "JobWithdrawn");
        }
    }

    /**
     * The same through a submitter's inbox on a secured cluster, the submission gate's group sent back too: the gate must
     * not pass on again a submission whose job was deleted since, which the queue would take for a new job. One partition
     * a topic, so that a job submitted after the restart is decided only once everything before it was read again.
     */
    @Test
    void aGateSentBackToTheBeginningDoesNotPassOnAgainTheSubmissionOfAJobThatWasDeleted() throws Exception {
        JobEvent job = Seed.submission("default", "pytorch-test");
        JobEvent after = Seed.submission("default", "pytorch-test-2");
        String inbox = Topics.inboxOf("alice");
        try (KafkaBroker broker = KafkaBroker.start()) {
            MusterTopics.create(broker, 1);
            broker.createTopic(inbox, 1, Map.of());
            try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
                 ServiceProcess service = ServiceProcess.start(JAR, Map.of("kafka.bootstrap.servers", broker.bootstrapServers(),
                         "muster.queue.fleet-api.watch", "false", "muster.queue.submitters.alice.namespaces", "default"), DEADLINE)) {
                client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
                client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
                client.send(inbox, job);
                client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobAdmitted, DEADLINE);
                client.send(inbox, JobEvent.create("/alice", job.job(), Instant.now(), new JobDeleted("done with it")));
                client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobWithdrawn, DEADLINE);

                service.kill();
                broker.rewindGroup(GROUP, List.of(Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.MEMBER_STATUS, Topics.PLACEMENTS), DEADLINE);
                broker.rewindGroup(GROUP + "-gate", List.of(inbox), DEADLINE);
                service.startAgain(DEADLINE);
                client.send(inbox, after);
                client.await(Topics.ADMISSIONS, event -> event.job().equals(after.job()), DEADLINE);

                assertThat(client.readAll(Topics.ADMISSIONS)).filteredOn(event -> event.job().equals(job.job()))
                        .extracting(event -> event.data().getClass().getSimpleName())
                        .as("the job's decisions; service log %s", service.log()).containsExactly("JobAdmitted", "JobWithdrawn");
            }
        }
    }
}
