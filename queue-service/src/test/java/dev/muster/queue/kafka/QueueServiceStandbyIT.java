package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.Topics;
import dev.muster.testing.FaultTier;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerExtension;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceProcess;

/**
 * Two packaged queue services in one consumer group: one decides, the other stands by; when the first dies,
 * the second takes over within 10 s with the whole queue restored from Kafka and decides as the first would have.
 */
@FaultTier
@ExtendWith(KafkaBrokerExtension.class)
class QueueServiceStandbyIT {

    private static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");
    private static final Duration DEADLINE = Duration.ofSeconds(60);



    @Test
    void aStandbyTakesOverWithTheWholeQueueWhenTheActiveInstanceDies(KafkaBroker broker) throws Exception {
        MusterTopics.create(broker, 3);
        Map<String, String> settings = Map.of("kafka.bootstrap.servers", broker.bootstrapServers(), "muster.queue.fleet-api.watch", "false");
        JobEvent first = Seed.submission("default", "pytorch-test");
        JobEvent second = Seed.submission("default", "pytorch-test-2");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess active = ServiceProcess.start(JAR, settings, DEADLINE)) {
            admitOne(client, first);

            try (ServiceProcess standby = ServiceProcess.start(JAR, settings, DEADLINE)) {
                await().atMost(DEADLINE).untilAsserted(() -> assertThat(Files.readString(standby.log())).as("log %s", standby.log())
                        .contains("standing by: another instance owns the inputs").contains("warmed up for a takeover").doesNotContain("queue state restored"));
                // A standby holds no queue: its views say so rather than show empty queues.
                assertThat(queuesView(standby).statusCode()).as("the standby's queue view").isEqualTo(503);
                assertThat(queuesView(standby).body()).contains("has not restored its state");
                active.kill();
                Instant killed = Instant.now();
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                        assertThat(Files.readString(standby.log())).as("log %s", standby.log()).contains("queue state restored"));
                System.out.printf("the standby took over %d ms after the active was killed%n", Duration.between(killed, Instant.now()).toMillis());
                // What the dead instance left open, in its decisions' transactions and its gate's, is aborted at once.
                assertThat(Files.readString(standby.log())).containsPattern("fenced the previous owner's transactional id muster-queue-service-[0-9a-f-]{36} ")
                        .containsPattern("fenced the previous owner's transactional id muster-queue-service-gate-[0-9a-f-]{36} ");
                client.send(Topics.SUBMISSIONS, second);
                client.await(Topics.ADMISSIONS, event -> event.job().equals(second.job()) && event.data() instanceof JobQueued, DEADLINE);
                client.send(Topics.MEMBER_STATUS, JobEvent.create("/test", first.job(), Instant.now(), new JobFinished("cluster-a", "Succeeded", null)));
                client.await(Topics.ADMISSIONS, event -> event.job().equals(second.job()) && event.data() instanceof JobAdmitted, DEADLINE);

                List<JobEvent> decisions = client.readAll(Topics.ADMISSIONS);
                assertThat(decisions).filteredOn(event -> event.job().equals(first.job())).extracting(event -> event.data().getClass().getSimpleName())
                        .containsExactly("JobAdmitted");
                assertThat(decisions).filteredOn(event -> event.job().equals(second.job())).extracting(event -> event.data().getClass().getSimpleName())
                        .containsExactly("JobQueued", "JobAdmitted");
                assertThat(Files.readString(standby.log())).as("the standby restored the queue when it took over")
                        .containsPattern("queue state restored from muster.queue.state: [1-9][0-9]* records, 1 tracked jobs");
                assertThat(queuesView(standby).statusCode()).as("the queue view once taken over").isEqualTo(200);
            }
        }
    }

    @Test
    void anOwnerFrozenPastItsSessionComesBackAsAStandbyWhoseViewsSaySo() throws Exception {
        try (KafkaBroker broker = KafkaBroker.start()) {
            MusterTopics.create(broker, 3);
            Map<String, String> settings = Map.of("kafka.bootstrap.servers", broker.bootstrapServers(), "muster.queue.fleet-api.watch", "false");
            JobEvent first = Seed.submission("default", "pytorch-test");
            try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
                 ServiceProcess active = ServiceProcess.start(JAR, settings, DEADLINE)) {
                admitOne(client, first);
                try (ServiceProcess standby = ServiceProcess.start(JAR, settings, DEADLINE)) {
                    await().atMost(DEADLINE).untilAsserted(() -> assertThat(Files.readString(standby.log())).as("log %s", standby.log())
                            .contains("standing by: another instance owns the inputs"));
                    assertThat(queuesView(active).statusCode()).as("the owner's queue view").isEqualTo(200);

                    // Frozen past its session (6 s), as a long pause would: the standby takes the queue over meanwhile.
                    active.pause();
                    try {
                        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                                assertThat(Files.readString(standby.log())).as("log %s", standby.log()).contains("queue state restored"));
                    } finally {
                        active.resume();
                    }
                    // Back, it learns it no longer owns the inputs: what it holds may be behind the queue now, and its
                    // views say so rather than show it, while the new owner's show the queue.
                    await().atMost(DEADLINE).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                        assertThat(Files.readString(active.log())).as("log %s", active.log()).contains("standing by: another instance owns the inputs");
                        assertThat(queuesView(active).statusCode()).as("the former owner's queue view; log %s", active.log()).isEqualTo(503);
                    });
                    assertThat(queuesView(active).body()).contains("has not restored its state");
                    assertThat(queuesView(standby).statusCode()).as("the new owner's queue view").isEqualTo(200);
                }
            }
        }
    }

    /** The seed's tree and the default namespace's policy, then one job submitted and admitted. */
    private static void admitOne(JobEventClient client, JobEvent job) {
        client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
        client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
        client.send(Topics.SUBMISSIONS, job);
        client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobAdmitted, DEADLINE);
    }

    private static java.net.http.HttpResponse<String> queuesView(ServiceProcess queue) throws Exception {
        return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + queue.port() + "/api/v1/queues")).timeout(Duration.ofSeconds(10)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void killedUnderLoadTheStandbyLosesNoSubmissionAndAdmitsNoJobTwice() throws Exception {
        // A broker of its own: the other test leaves a job running in child-2, which runs one at a time.
        try (KafkaBroker broker = KafkaBroker.start()) {
            MusterTopics.create(broker, 3);
            decideUnderLoad(broker);
        }
    }

    private void decideUnderLoad(KafkaBroker broker) throws Exception {
        Map<String, String> settings = Map.of("kafka.bootstrap.servers", broker.bootstrapServers(), "muster.queue.fleet-api.watch", "false");
        JobEvent running = Seed.submission("default", "running-under-load");
        List<JobEvent> waiting = new java.util.ArrayList<>();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers());
             ServiceProcess active = ServiceProcess.start(JAR, settings, DEADLINE);
             ServiceProcess standby = ServiceProcess.start(JAR, settings, DEADLINE)) {
            client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
            client.send(Topics.SUBMISSIONS, running);
            client.await(Topics.ADMISSIONS, event -> event.job().equals(running.job()) && event.data() instanceof JobAdmitted, DEADLINE);
            ServiceProcess owner = Files.readString(active.log()).contains("queue state restored") ? active : standby;
            ServiceProcess other = owner == active ? standby : active;
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(Files.readString(other.log())).as("log %s", other.log())
                    .contains("standing by: another instance owns the inputs").contains("warmed up for a takeover"));

            // Ten submissions a second, the owner killed in the middle of them; the seed's child-2 runs one job at a time.
            for (int i = 0; i < 20; i++) {
                if (i == 10) {
                    owner.kill();
                }
                JobEvent submitted = Seed.submission("default", "load-" + i);
                client.send(Topics.SUBMISSIONS, submitted);
                waiting.add(submitted);
                Thread.sleep(100);
            }
            for (JobEvent job : waiting) {
                client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobQueued, DEADLINE);
            }
            client.send(Topics.MEMBER_STATUS, JobEvent.create("/test", running.job(), Instant.now(), new JobFinished("cluster-a", "Succeeded", null)));
            JobEvent next = client.await(Topics.ADMISSIONS, event -> event.data() instanceof JobAdmitted && !event.job().equals(running.job()),
                    DEADLINE);

            Map<String, java.util.Set<String>> admissions = new java.util.HashMap<>();
            client.readAll(Topics.ADMISSIONS).stream().filter(event -> event.data() instanceof JobAdmitted)
                    .forEach(event -> admissions.computeIfAbsent(event.job().name(), name -> new java.util.HashSet<>()).add(event.id()));
            assertThat(admissions).as("admissions by job (a repeat carries the same id); log %s", other.log())
                    .containsOnlyKeys(running.job().name(), next.job().name())
                    .allSatisfy((name, ids) -> assertThat(ids).hasSize(1));
        }
    }
}
