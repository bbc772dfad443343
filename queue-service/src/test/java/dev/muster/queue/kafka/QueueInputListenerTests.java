package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;


import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.QuotaTreeApplied;
import dev.muster.model.event.Topics;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.ReplicaSpec;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceHealthContract;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.kafka.KafkaMessageFactory;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
class QueueInputListenerTests extends ServiceHealthContract {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @InjectKafkaBroker
    KafkaBroker broker;

    @ConfigProperty(name = "mp.messaging.incoming.inputs.topics")
    List<String> inputTopics;

    @ConfigProperty(name = "mp.messaging.outgoing.admissions.topic")
    String admissionsTopic;

    @ConfigProperty(name = "mp.messaging.incoming.inputs.group.id")
    String groupId;




    private static JobEvent decisionOn(JobEventClient client, JobEvent about, Class<?> type) {
        return client.await(Topics.ADMISSIONS, event -> event.job().equals(about.job()) && type.isInstance(event.data()), DEADLINE);
    }

    @Test
    void theChannelsUseTheSharedTopicNames() {
        assertThat(inputTopics).containsExactly(Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.MEMBER_STATUS, Topics.PLACEMENTS);
        assertThat(admissionsTopic).isEqualTo(Topics.ADMISSIONS);
    }

    @Test
    void theSeedWalkthroughOverTheBrokerOneJobRunsTheSecondWaitsThenRuns() {
        JobEvent first = Seed.submission("default", "pytorch-test");
        JobEvent second = Seed.submission("default", "pytorch-test-2");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, Seed.treeApplied());
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("default"));
            // Jobs are keyed apart, so on different partitions: submit the second once the first is decided, as the seed does.
            client.send(Topics.SUBMISSIONS, first);
            JobEvent admitted = decisionOn(client, first, JobAdmitted.class);
            client.send(Topics.SUBMISSIONS, second);
            JobEvent queued = decisionOn(client, second, JobQueued.class);
            client.send(Topics.MEMBER_STATUS, JobEvent.create("/test", first.job(), Instant.now(), new JobFinished("cluster-a", "Succeeded", null)));
            JobEvent admittedAfter = decisionOn(client, second, JobAdmitted.class);

            assertThat(admitted.source()).isEqualTo(FleetQueue.SOURCE);
            assertThat(((JobAdmitted) admitted.data()).quotaLeaf()).isEqualTo("child-2");
            assertThat(((JobAdmitted) admitted.data()).demand()).isEqualTo(ResourceList.parse(Map.of("cpu", "4010m", "memory", "4Gi")));
            assertThat(((JobQueued) queued.data()).message()).isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use");
            assertThat(((JobAdmitted) admittedAfter.data()).quotaLeaf()).isEqualTo("child-2");
            // The service's state is on its compacted topic, as a restarted instance would read it.
            assertThat(client.latestByKey(Topics.QUEUE_STATE)).containsKeys("tree", "policy/default/example-policy",
                    "job/" + second.job().uid()).doesNotContainKey("job/" + first.job().uid());
            String metrics = io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
            assertThat(metrics).containsPattern("muster_queue_admissions_total [1-9]")
                    .containsPattern("muster_quota_max\\{node=\"root/child-2\",resource=\"kube-queue/max-jobs\"} 1\\.0")
                    .containsPattern("muster_quota_used\\{node=\"root/child-2\",resource=\"kube-queue/max-jobs\"} 1\\.0")
                    .containsPattern("muster_queue_depth\\{leaf=\"child-2\",queue=\"root-child-2-[a-z0-9]{5}\"} 0\\.0")
                    .contains("muster_queue_decision_seconds_count");
        }
    }

    /**
     * The Kafka submission example of docs/architecture.md, as a console producer sends it (structured), and the same
     * event as the CloudEvents SDK sends it by default (binary: attributes in ce_* headers) for a second job: the same
     * decision. In a namespace of their own, so the example's job name cannot meet another test's.
     */
    @Test
    void theDocumentedKafkaSubmissionIsDecidedAlikeSentStructuredOrBinaryThroughTheCloudEventsSdk() throws Exception {
        String example = Files.readAllLines(Path.of("..", "docs", "architecture.md")).stream()
                .filter(line -> line.startsWith("job-0001|{")).findFirst().orElseThrow(() -> new AssertionError("the docs lost the example"));
        String key = example.substring(0, example.indexOf('|'));
        String structured = example.substring(example.indexOf('|') + 1).replace("\"subject\":\"default/", "\"subject\":\"sdk-modes/");
        JsonNode attributes = JobEventClient.json(structured.getBytes(StandardCharsets.UTF_8));
        CloudEventBuilder sdk = CloudEventBuilder.v1().withId(UUID.randomUUID().toString())
                .withSource(URI.create(attributes.path("source").asText())).withType(attributes.path("type").asText())
                .withSubject(attributes.path("subject").asText() + "-binary")
                .withTime(OffsetDateTime.parse(attributes.path("time").asText())).withExtension("jobuid", "job-0002")
                .withDataContentType(attributes.path("datacontenttype").asText())
                .withData(attributes.path("data").toString().getBytes(StandardCharsets.UTF_8));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("sdk-modes"));
            client.sendRaw(Topics.SUBMISSIONS, key, structured.getBytes(StandardCharsets.UTF_8));
            client.send(KafkaMessageFactory.createWriter(Topics.SUBMISSIONS, null, null, "job-0002").writeBinary(sdk.build()));

            JobEvent asWritten = client.await(Topics.ADMISSIONS, event -> event.job().uid().equals("job-0001"), DEADLINE);
            JobEvent viaSdk = client.await(Topics.ADMISSIONS, event -> event.job().uid().equals("job-0002"), DEADLINE);

            assertThat(asWritten.job()).isEqualTo(new JobRef("sdk-modes", "pytorch-test", "job-0001"));
            assertThat(viaSdk.job()).isEqualTo(new JobRef("sdk-modes", "pytorch-test-binary", "job-0002"));
            assertThat(viaSdk.data()).isEqualTo(asWritten.data());
        }
    }

    @Test
    void decisionsResumeAfterTheBrokerCrashesAndComesBack() {
        JobEvent beforeCrash = Seed.submission("crash", "before-crash");
        JobEvent afterCrash = Seed.submission("crash", "after-crash");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("crash"));
            client.send(Topics.SUBMISSIONS, beforeCrash);
            decisionOn(client, beforeCrash, JobQueued.class);

            broker.kill();
            broker.startAgain();
            client.send(Topics.SUBMISSIONS, afterCrash);

            client.await(Topics.ADMISSIONS, event -> event.job().equals(afterCrash.job()), Duration.ofSeconds(60));
            // Exactly once across the crash: the decision made before it is not made again.
            assertThat(client.readAll(Topics.ADMISSIONS)).filteredOn(event -> event.job().equals(beforeCrash.job())).hasSize(1);
        }
    }

    @Test
    void anUnreadableRecordIsDeadLetteredAndTheNextSubmissionIsStillDecided() {
        JobEvent invalid = Seed.submission("dead-letters", "bad-replicas");
        PyTorchJob job = ((JobSubmitted) invalid.data()).job();
        job.getSpec().pytorchReplicaSpecs().put("Worker", new ReplicaSpec(-1, "OnFailure", job.getSpec().pytorchReplicaSpecs().get("Worker").template()));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.sendRaw(Topics.SUBMISSIONS, "garbage-key", "this is not an event".getBytes(StandardCharsets.UTF_8));
            client.send(Topics.SUBMISSIONS, invalid);

            DeadLetter letter = client.awaitDeadLetter(Topics.DEAD_LETTER, dead -> "garbage-key".equals(dead.key()), DEADLINE);
            JobEvent rejected = decisionOn(client, invalid, JobRejected.class);
            DeadLetter invalidLetter = client.awaitDeadLetter(Topics.DEAD_LETTER, dead -> invalid.key().equals(dead.key()), DEADLINE);

            assertThat(letter.reason()).startsWith("not JSON: ");
            assertThat(letter.payload()).isEqualTo("this is not an event");
            assertThat(letter.service()).isEqualTo("queue-service");
            assertThat(rejected.data()).isEqualTo(new JobRejected(List.of("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1")));
            assertThat(invalidLetter.reason()).isEqualTo("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1");
            assertThat(invalidLetter.payload()).contains("\"replicas\":-1");
        }
    }

    /**
     * A record as large as the broker takes, of characters JSON must escape, would make a dead letter twice its size
     * and past the producer's limit: the transaction would abort and the record be read again, forever.
     */
    @Test
    void aRecordAsLargeAsTheBrokerTakesIsDeadLetteredCutToFitAndTheNextSubmissionIsStillDecided() {
        byte[] huge = "\"".repeat(1_000_000).getBytes(StandardCharsets.UTF_8);
        JobEvent next = Seed.submission("huge", "after-the-huge-one");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("huge"));
            client.sendRaw(Topics.SUBMISSIONS, "huge-record", huge);
            client.send(Topics.SUBMISSIONS, next);

            client.await(Topics.ADMISSIONS, event -> event.job().equals(next.job()), DEADLINE);
            DeadLetter letter = client.awaitDeadLetter(Topics.DEAD_LETTER, dead -> "huge-record".equals(dead.key()), DEADLINE);
            assertThat(letter.payloadBytes()).isEqualTo(huge.length);
            assertThat(letter.payloadTruncated()).isTrue();
            assertThat(letter.payload()).hasSize(DeadLetter.PAYLOAD_LIMIT).matches("\"+");
            assertThat(letter.reason()).isEqualTo("a CloudEvent must be a JSON object");
        }
    }

    @Test
    void aProducerMaySendTheManifestAsYamlAndAnUnreadableOneRejectsItsJob() {
        String yaml = Seed.text("pytorch-job.yaml").replace("namespace: default", "namespace: yaml-path").replace("name: pytorch-test\n", "name: from-yaml\n");
        String readable = envelope("yaml-path/from-yaml", "uid-yaml-1", quoted(yaml));
        String unreadable = envelope("yaml-path/wrong-kind", "uid-yaml-2", quoted("apiVersion: batch/v1\nkind: Job\nmetadata: {name: wrong-kind}\n"));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("yaml-path"));
            client.sendRaw(Topics.SUBMISSIONS, "uid-yaml-1", readable.getBytes(StandardCharsets.UTF_8));
            client.sendRaw(Topics.SUBMISSIONS, "uid-yaml-2", unreadable.getBytes(StandardCharsets.UTF_8));

            JobEvent queued = client.await(Topics.ADMISSIONS, event -> event.job().uid().equals("uid-yaml-1"), DEADLINE);
            JobEvent rejected = client.await(Topics.ADMISSIONS, event -> event.job().uid().equals("uid-yaml-2"), DEADLINE);
            DeadLetter letter = client.awaitDeadLetter(Topics.DEAD_LETTER, dead -> "uid-yaml-2".equals(dead.key()), DEADLINE);

            assertThat(queued.data()).isInstanceOf(JobQueued.class);
            assertThat(rejected.data()).isInstanceOfSatisfying(JobRejected.class, data -> assertThat(data.reasons()).containsExactly(
                    "submitted manifest: unknown kind \"Job\" (apiVersion \"batch/v1\"); Muster accepts PyTorchJob (kubeflow.org/v1),"
                            + " PropagationPolicy (policy.one.alibabacloud.com/v1alpha1), ElasticQuotaTree (scheduling.sigs.k8s.io/v1beta1),"
                            + " Queue (scheduling.x-k8s.io/v1alpha1), QueueUnit (scheduling.x-k8s.io/v1alpha1)"));
            assertThat(letter.reason()).isEqualTo(((JobRejected) rejected.data()).reasons().get(0));
        }
    }

    private static String envelope(String subject, String uid, String data) {
        return "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"" + UUID.randomUUID() + "\","
                + "\"source\":\"/producer\",\"subject\":\"" + subject + "\",\"jobuid\":\"" + uid + "\","
                + "\"time\":\"2026-11-29T17:00:00Z\",\"data\":" + data + "}";
    }

    private static String quoted(String text) {
        try {
            return dev.muster.model.json.MusterJson.json().writeValueAsString(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aJobGivenBackIsAdmittedAgainWhenItsBackoffExpiresWithNoOtherEvent() {
        JobEvent job = Seed.submission("give-back", "returned");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            // The seed's tree plus a leaf of this test's own: child-2's single slot belongs to the seed test.
            String tree = Seed.text("elastic-quota-tree.yaml") + "    - name: give-back\n      max:\n        kube-queue/max-jobs: 1\n"
                    + "      namespaces:\n        - give-back\n";
            client.send(Topics.FLEET_CONFIG, ConfigEvent.create("/test", Instant.now(), new QuotaTreeApplied(Manifests.read(tree,
                    ElasticQuotaTree.class))));
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("give-back"));
            client.send(Topics.SUBMISSIONS, job);
            decisionOn(client, job, JobAdmitted.class);

            client.send(Topics.PLACEMENTS, JobEvent.create("/muster/placement-service", job.job(), Instant.now(),
                    new dev.muster.model.event.JobGivenBack("fits on no member cluster")));

            JobEvent backoff = decisionOn(client, job, JobQueued.class);
            assertThat(((JobQueued) backoff.data()).reason()).isEqualTo("Backoff");
            client.await(Topics.ADMISSIONS, event -> event.job().equals(job.job()) && event.data() instanceof JobAdmitted
                    && event.time().isAfter(backoff.time()), DEADLINE);
        }
    }

    @Test
    void recordsThatDecideNothingAreCommittedWithoutATransaction() throws Exception {
        JobEvent submitted = Seed.submission("quiet", "decided");
        JobRef elsewhere = Seed.submission("quiet", "progress-only").job();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); Admin admin = broker.admin()) {
            client.send(Topics.FLEET_CONFIG, Seed.queuePolicyApplied("quiet"));
            client.send(Topics.SUBMISSIONS, submitted);
            decisionOn(client, submitted, JobQueued.class);
            long lastTransaction = lastTransactionStart(admin);

            // A job's progress on a member is nothing the queue decides on (only its end is).
            for (String state : List.of("Created", "Running", "Restarting", "Running")) {
                client.send(Topics.MEMBER_STATUS, JobEvent.create("/test", elsewhere, Instant.now(),
                        new MemberStatusChanged("cluster-a", state, "PyTorchJob" + state, "on cluster-a", null)));
            }
            Map<TopicPartition, Long> sent = admin.listOffsets(partitionsOf(admin, Topics.MEMBER_STATUS)).all().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));

            await("the queue service commits the offsets of what it read").atMost(DEADLINE).until(() -> committedUpTo(admin, sent));
            assertThat(lastTransactionStart(admin)).as("no transaction began after the last decision").isEqualTo(lastTransaction);
        }
    }

    private boolean committedUpTo(Admin admin, Map<TopicPartition, Long> ends) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
        return ends.entrySet().stream().allMatch(end -> end.getValue() == 0
                || committed.get(end.getKey()) != null && committed.get(end.getKey()).offset() >= end.getValue());
    }

    private static Map<TopicPartition, OffsetSpec> partitionsOf(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().stream()
                .collect(Collectors.toMap(partition -> new TopicPartition(topic, partition.partition()), partition -> OffsetSpec.latest()));
    }

    /** When the queue service's transactional producer last began a transaction, as its coordinator has it. */
    private static long lastTransactionStart(Admin admin) throws Exception {
        List<String> ids = admin.listTransactions().all().get().stream().map(TransactionListing::transactionalId)
                .filter(id -> id.startsWith("muster-queue-service-") && !id.startsWith("muster-queue-service-gate-")).toList();
        assertThat(ids).as("the queue service's transactional id").hasSize(1);
        TransactionDescription description = admin.describeTransactions(ids).all().get().get(ids.get(0));
        assertThat(description.transactionStartTimeMs()).as("a transaction has begun").isPresent();
        return description.transactionStartTimeMs().getAsLong();
    }

    @Test
    void aSecondQuotaTreeIsRefusedOnTheObjectWithTheReasonAndTheFirstStaysInForce() {
        ElasticQuotaTree first = Manifests.read(Seed.text("elastic-quota-tree.yaml"), ElasticQuotaTree.class);
        ElasticQuotaTree second = Manifests.read(Seed.text("elastic-quota-tree.yaml").replace("name: elasticquotatree", "name: another-tree"),
                ElasticQuotaTree.class);
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.FLEET_CONFIG, ConfigEvent.create("/test", Instant.now(), new QuotaTreeApplied(first)));
            client.send(Topics.FLEET_CONFIG, ConfigEvent.create("/test", Instant.now(), new QuotaTreeApplied(second)));

            ConfigEvent refused = client.await(Topics.ADMISSIONS, ConfigEvent.class, event -> event.data() instanceof ConfigRejected rejected
                    && rejected.object().name().equals("another-tree"), DEADLINE);

            ConfigRejected rejection = (ConfigRejected) refused.data();
            assertThat(rejection.reasons()).containsExactly("only one ElasticQuotaTree is supported and ElasticQuotaTree"
                    + " kube-system/elasticquotatree is in force");
            assertThat(rejection.inForce()).startsWith("ElasticQuotaTree kube-system/elasticquotatree as last accepted");
            assertThat(refused.key()).isEqualTo("ElasticQuotaTree/kube-system/another-tree");
        }
    }
}
