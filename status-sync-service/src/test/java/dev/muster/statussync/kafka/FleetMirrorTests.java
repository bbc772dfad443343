package dev.muster.statussync.kafka;

import static io.restassured.RestAssured.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.muster.fleetclient.ThrottledTokenRefresh;
import dev.muster.model.event.ConfigAccepted;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRef;
import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobShown;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;
import dev.muster.model.policy.FailoverPolicy;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.quota.QueueNames;
import dev.muster.simulator.cluster.CustomResources;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.testing.SimulatedMembersTestResource.InjectSimulatedMembers;
import dev.muster.simulator.testing.SimulatedMembersTestResource;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/**
 * Status sync over the seed's simulated members, a real broker and a fleet API server: the test stands in for
 * the queue and placement (it sends their events and creates the member copies they would), and checks what a
 * user sees on the fleet and what happens on the members.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@WithTestResource(KafkaBrokerTestResource.class)
@WithTestResource(value = SimulatedMembersTestResource.class, initArgs = {
        @ResourceArg(name = SimulatedMembersTestResource.PREFIX, value = "muster.status-sync.members"),
        @ResourceArg(name = "muster.status-sync.health-interval", value = "500ms"),
        @ResourceArg(name = "muster.status-sync.tick-interval", value = "200ms")})
class FleetMirrorTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String PLACEMENT = "/muster/placement-service";
    private static boolean fleetServesMusterTypes;

    @InjectKafkaBroker
    KafkaBroker broker;

    @InjectSimulatedMembers
    SimulatedFleet members;

    /** The fleet API server. */
    @Inject
    KubernetesClient fleet;

    @BeforeEach
    void serveMusterTypesOnTheFleet() {
        if (!fleetServesMusterTypes) {
            CustomResources.registerFleet(fleet);
            fleetServesMusterTypes = true;
        }
    }

    /** Creates the job on the fleet API, as a user's {@code kubectl apply} would; its UID is the fleet's. */
    private JobRef submit(String name) {
        PyTorchJob created = fleet.resources(PyTorchJob.class).inNamespace("default").resource(Seed.job("default", name)).create();
        return new JobRef("default", name, created.getMetadata().getUid());
    }

    /** Does what placement does once the gang fits: the member copy, then the binding event. */
    private JobEvent place(JobEventClient client, JobRef job, String cluster, int generation, Optional<FailoverPolicy> failover) throws Exception {
        PyTorchJob fleetJob = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
        try (KubernetesClient member = member(cluster).connect()) {
            member.resources(PyTorchJob.class).inNamespace(job.namespace())
                    .resource(MemberJobs.forMember(fleetJob, job.uid(), null, generation, failover)).create();
        }
        JobEvent bound = JobEvent.create(PLACEMENT, job, Instant.now(), JobBound.of(cluster, null, JobDemand.of(fleetJob).podCounts()));
        client.send(Topics.PLACEMENTS, bound);
        return bound;
    }

    private SimulatedCluster member(String cluster) {
        return members.cluster(cluster).orElseThrow();
    }

    private Optional<JobCondition> fleetCondition(JobRef job) {
        PyTorchJob current = fleet.resources(PyTorchJob.class).inNamespace(job.namespace()).withName(job.name()).get();
        return current == null || current.getStatus() == null ? Optional.empty() : current.getStatus().currentCondition();
    }

    private List<Event> fleetEvents(JobRef job) {
        return fleet.v1().events().inNamespace(job.namespace()).list().getItems().stream()
                .filter(event -> job.uid().equals(event.getInvolvedObject().getUid())).toList();
    }

    private static List<Pod> pods(KubernetesClient member, String job) {
        return member.pods().inNamespace("default").withLabel(GangPod.JOB_NAME_LABEL, job).list().getItems();
    }

    @Test
    void theFleetClientReadsItsTokenAgainAtMostOnceAMinuteNotBeforeEveryRequest() {
        assertThat(fleet.getConfiguration().getOauthTokenProvider()).isInstanceOf(ThrottledTokenRefresh.class);
    }

    @Test
    void theMemberCopysStatusReachesTheFleetWithinSecondsAlongWithTheBindingEvent() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobRef job = submit("mirrored");
            place(client, job, "cluster-a", 0, Optional.empty());

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(fleetCondition(job)).map(JobCondition::type).contains("Running"));
            JobEvent running = client.await(Topics.MEMBER_STATUS, event -> event.job().equals(job)
                    && event.data() instanceof MemberStatusChanged changed && changed.state().equals("Running"), DEADLINE);
            assertThat(((MemberStatusChanged) running.data()).cluster()).isEqualTo("cluster-a");
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetEvents(job)).anySatisfy(event -> {
                assertThat(event.getReason()).isEqualTo("ScheduleBindingSucceed");
                assertThat(event.getType()).isEqualTo("Normal");
                assertThat(event.getSource().getComponent()).isEqualTo("default-scheduler");
                assertThat(event.getMessage()).isEqualTo("Binding has been scheduled successfully. Result: {cluster-a:0,[{master 1} {worker 2}]}");
            }));
        }

        List<Map<String, Object>> jobs = get("/api/v1/members/pytorchjobs").then().statusCode(200).extract().jsonPath().getList("");
        assertThat(jobs).anySatisfy(row -> assertThat(row).containsEntry("name", "mirrored").containsEntry("cluster", "cluster-a")
                .containsEntry("state", "Running").containsEntry("adoption", "Y"));
        List<Map<String, Object>> pods = get("/api/v1/members/pods").then().statusCode(200).extract().jsonPath().getList("");
        assertThat(pods).filteredOn(row -> row.get("name").toString().startsWith("mirrored-"))
                .extracting(row -> row.get("name") + " " + row.get("cluster") + " " + row.get("ready") + " " + row.get("status"))
                .containsExactly("mirrored-master-0 cluster-a 1/1 Running", "mirrored-worker-0 cluster-a 1/1 Running",
                        "mirrored-worker-1 cluster-a 1/1 Running");
        List<Map<String, Object>> health = get("/api/v1/members").then().statusCode(200).extract().jsonPath().getList("");
        assertThat(health).anySatisfy(row -> assertThat(row).containsEntry("cluster", "cluster-a").containsEntry("reachable", true)
                .containsEntry("reservationSupported", true).containsEntry("nodes", 2).containsEntry("notReadyNodes", List.of()));
        // The member's copy in full, its pod templates too (status sync's own cache keeps only metadata and status).
        PyTorchJob copy = Manifests.read(get("/api/v1/members/cluster-a/pytorchjobs/default/mirrored").then().statusCode(200).extract().asString(),
                PyTorchJob.class);
        assertThat(copy.getSpec().pytorchReplicaSpecs()).isNotEmpty();
        assertThat(copy.getStatus().currentCondition()).map(JobCondition::type).hasValue("Running");
        get("/api/v1/members/cluster-x/pytorchjobs/default/mirrored").then().statusCode(404);
        String metrics = get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("muster_status_sync_lag_seconds_count{member=\"cluster-a\"}")
                .containsPattern("muster_status_member_healthy\\{member=\"cluster-b\"\\} 1");
    }

    @Test
    void aQueuedJobShowsQueuingWithItsReasonAndItsQueueUnitThenIsDequeued() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            Map<String, String> queues = QueueNames.ofTree(Seed.tree().getSpec().root());
            client.send(Topics.ADMISSIONS, new ConfigEvent(java.util.UUID.randomUUID().toString(), "/muster/queue-service", Instant.now(),
                    new ConfigAccepted(new ConfigRef("ElasticQuotaTree", "kube-system", "elasticquotatree"), false, queues)));
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.resources(Queue.class).inNamespace(Queue.NAMESPACE).list().getItems())
                    .extracting(queue -> queue.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(queues.values()));

            JobRef job = submit("waiting");
            PyTorchJob manifest = Seed.job("default", "waiting");
            String queue = queues.get("child-2");
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(), new JobQueued(queue, "QuotaExceeded",
                    "root/child-2: kube-queue/max-jobs 1/1 in use", 1, JobDemand.of(manifest).total())));

            await().atMost(DEADLINE).untilAsserted(() -> {
                assertThat(fleetCondition(job)).hasValueSatisfying(condition -> {
                    assertThat(condition.type()).isEqualTo("Queuing");
                    assertThat(condition.reason()).isEqualTo("QuotaExceeded");
                    assertThat(condition.message()).isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use");
                });
                QueueUnit unit = fleet.resources(QueueUnit.class).inNamespace("default").withName("waiting").get();
                // Written just after the condition: not there yet is a reason to wait, not a failure.
                assertThat(unit).isNotNull();
                assertThat(unit.getSpec().queue()).isEqualTo(queue);
                assertThat(unit.getStatus()).isNotNull().extracting(status -> status.phase()).isEqualTo("Enqueued");
                assertThat(fleetEvents(job)).extracting(Event::getReason).contains("Queued");
            });

            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(),
                    new JobAdmitted(manifest, Seed.queuePolicy("default"), "child-2", JobDemand.of(manifest).total())));

            await().atMost(DEADLINE).untilAsserted(() -> {
                assertThat(fleet.resources(QueueUnit.class).inNamespace("default").withName("waiting").get().getStatus())
                        .isNotNull().extracting(status -> status.phase()).isEqualTo("Dequeued");
                assertThat(fleetCondition(job)).map(JobCondition::reason).contains("Placing");
            });
        }
    }

    @Test
    void aJobSubmittedOnTheKafkaPathIsShownOnTheFleetApiWithItsStatusAndEvents() {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent submitted = Seed.submission("default", "via-kafka");
            JobRef job = submitted.job();
            client.send(Topics.SUBMISSIONS, submitted);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.resources(PyTorchJob.class).inNamespace("default")
                    .withName("via-kafka").get()).isNotNull());
            PyTorchJob shown = fleet.resources(PyTorchJob.class).inNamespace("default").withName("via-kafka").get();
            assertThat(FleetJobs.isKafkaSubmission(shown)).isTrue();
            assertThat(FleetJobs.eventUid(shown)).isEqualTo(job.uid());
            assertThat(shown.getSpec().pytorchReplicaSpecs()).containsKeys("Master", "Worker");
            // The queue is told the object is there: its deletion deletes the job from then on.
            JobEvent told = client.await(Topics.MEMBER_STATUS, event -> event.job().equals(job) && event.data() instanceof JobShown, DEADLINE);
            assertThat(((JobShown) told.data()).objectUid()).isEqualTo(shown.getMetadata().getUid());

            JobEvent queued = JobEvent.create("/muster/queue-service", job, Instant.now(), new JobQueued(null,
                    "NoQuotaForNamespace", "namespace \"default\" is bound to no quota leaf of the ElasticQuotaTree", null,
                    JobDemand.of(shown).total()));
            client.send(Topics.ADMISSIONS, queued);

            await().atMost(DEADLINE).untilAsserted(() -> {
                assertThat(fleetCondition(job)).map(JobCondition::reason).contains("NoQuotaForNamespace");
                // kubectl describe finds events by the object's own UID.
                assertThat(eventsOf(shown)).extracting(Event::getReason).contains("Queued");
            });

            // The same decision again (as read again after a restart), then the next one, after it on the same partition.
            client.send(Topics.ADMISSIONS, queued);
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(), new JobAdmitted(shown, null, null,
                    JobDemand.of(shown).total())));

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(eventsOf(shown)).extracting(Event::getReason).contains("Admitted"));
            assertThat(eventsOf(shown)).extracting(Event::getReason).containsOnlyOnce("Queued");
            // The same submission read again (as after a restart): the object is there, and it is told again, the same event.
            client.send(Topics.SUBMISSIONS, submitted);
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(client.readAll(Topics.MEMBER_STATUS))
                    .filteredOn(event -> event.job().equals(job) && event.data() instanceof JobShown).hasSize(2)
                    .extracting(JobEvent::id).containsOnly(told.id()));
        }
    }

    @Test
    void aJobSeenRunningOnItsMemberBeforeItsSubmissionIsReadIsShownRunningOnceTheFleetJobIsWritten() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient member = member("cluster-a").connect()) {
            JobEvent submitted = Seed.submission("default", "ahead-of-its-events");
            JobRef job = submitted.job();
            // Status sync watches members as they change but reads events in turn: with a backlog (or after a restart)
            // it sees a copy placement made run before it has read the job's submission. Its status has nowhere to go yet.
            member.resources(PyTorchJob.class).inNamespace("default")
                    .resource(MemberJobs.forMember(((JobSubmitted) submitted.data()).job(), job.uid(), null, 0, Optional.empty())).create();
            client.await(Topics.MEMBER_STATUS, event -> event.job().equals(job) && event.data() instanceof MemberStatusChanged changed
                    && changed.state().equals("Running"), DEADLINE);

            client.send(Topics.SUBMISSIONS, submitted);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetCondition(job)).map(JobCondition::type).contains("Running"));
        }
    }

    private List<Event> eventsOf(PyTorchJob shown) {
        return fleet.v1().events().inNamespace(shown.getMetadata().getNamespace()).list().getItems().stream()
                .filter(event -> shown.getMetadata().getUid().equals(event.getInvolvedObject().getUid())).toList();
    }

    @Test
    void deletingTheFleetJobDeletesItsMemberCopyAndItsPods() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient member = member("cluster-b").connect()) {
            JobRef job = submit("deleted");
            place(client, job, "cluster-b", 0, Optional.empty());
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods(member, "deleted")).hasSize(3));

            client.send(Topics.SUBMISSIONS, JobEvent.create("/muster/fleet-ingress", job, Instant.now(), new JobDeleted("deleted from the fleet API")));

            await().atMost(DEADLINE).untilAsserted(() -> {
                assertThat(member.resources(PyTorchJob.class).inNamespace("default").withName("deleted").get()).isNull();
                assertThat(pods(member, "deleted")).isEmpty();
            });
        }
    }

    @Test
    void aWorkerFailingUnderOnFailureIsRestartedNotFailedOver() throws Exception {
        Optional<FailoverPolicy> quick = Optional.of(new FailoverPolicy(Duration.ofSeconds(1), PurgeMode.IMMEDIATELY));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient member = member("cluster-a").connect()) {
            JobRef job = submit("restarted");
            place(client, job, "cluster-a", 0, quick);
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetCondition(job)).map(JobCondition::type).contains("Running"));

            member("cluster-a").faults().failPod("default", "restarted-worker-0", 1);

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(pods(member, "restarted")).anySatisfy(pod -> {
                assertThat(pod.getMetadata().getName()).isEqualTo("restarted-worker-0");
                assertThat(pod.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
                assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
            }));
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetEvents(job)).anySatisfy(event -> {
                assertThat(event.getReason()).isEqualTo("PodRestarted");
                assertThat(event.getMessage()).isEqualTo("on cluster-a: pod restarted-worker-0 restarted in place (1 restarts in all)");
            }));
            // Three times the toleration: a failover would have come by now.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() ->
                    member.resources(PyTorchJob.class).inNamespace("default").withName("restarted").get() != null);
            assertThat(client.readAll(Topics.MEMBER_STATUS)).filteredOn(event -> event.job().equals(job))
                    .noneMatch(event -> event.data() instanceof FailoverTriggered);
        }
    }

    @Test
    void aMemberUnreachableLongerThanTheToleranceFailsTheJobOverAndItsCopyIsPurgedWhenTheMemberReturns() throws Exception {
        Optional<FailoverPolicy> quick = Optional.of(new FailoverPolicy(Duration.ofSeconds(2), PurgeMode.IMMEDIATELY));
        SimulatedCluster clusterB = member("cluster-b");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers()); KubernetesClient member = clusterB.connect()) {
            JobRef job = submit("moved");
            place(client, job, "cluster-b", 0, quick);
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetCondition(job)).map(JobCondition::type).contains("Running"));

            clusterB.faults().unreachable();
            JobEvent failover;
            try {
                failover = client.await(Topics.MEMBER_STATUS, event -> event.job().equals(job) && event.data() instanceof FailoverTriggered, DEADLINE);
            } finally {
                clusterB.faults().heal();
            }

            assertThat(failover.data()).isInstanceOfSatisfying(FailoverTriggered.class, triggered -> {
                assertThat(triggered.fromCluster()).isEqualTo("cluster-b");
                assertThat(triggered.reason()).isEqualTo("MemberUnreachable");
                assertThat(triggered.purgeMode()).isEqualTo("Immediately");
            });
            await().atMost(DEADLINE).untilAsserted(() -> {
                assertThat(fleetEvents(job)).extracting(Event::getReason).contains("FailoverTriggered");
                assertThat(fleetCondition(job)).map(JobCondition::reason).contains("FailingOver");
            });
            await().atMost(DEADLINE).untilAsserted(() -> {
                try {
                    assertThat(member.resources(PyTorchJob.class).inNamespace("default").withName("moved").get()).isNull();
                    assertThat(pods(member, "moved")).isEmpty();
                } catch (KubernetesClientException e) {
                    throw new AssertionError("the member is still coming back", e);
                }
            });
        }
    }

    @Test
    void aMemberSeenRunningBeforeTheJobsAdmissionIsReadKeepsShowingRunning() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobRef job = submit("ran-ahead");
            PyTorchJob manifest = Seed.job("default", "ran-ahead");
            place(client, job, "cluster-a", 0, Optional.empty());
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetCondition(job)).map(JobCondition::type).contains("Running"));

            // The admission read late, as after a restart or under a backlog, then one more decision of the job after it.
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(),
                    new JobAdmitted(manifest, Seed.queuePolicy("default"), null, JobDemand.of(manifest).total())));
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(),
                    new dev.muster.model.event.JobQueued(null, "NoQuotaForNamespace", "a marker after the admission", null,
                            JobDemand.of(manifest).total())));

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetEvents(job)).extracting(Event::getMessage)
                    .anySatisfy(message -> assertThat(message).contains("a marker after the admission")));
            assertThat(fleetCondition(job)).map(JobCondition::type).as("not the Queuing of the late admission").contains("Running");
        } finally {
            // Its pods would hold cluster-a's capacity for the tests after it.
            try (KubernetesClient member = member("cluster-a").connect()) {
                member.resources(PyTorchJob.class).inNamespace("default").withName("ran-ahead").delete();
            }
        }
    }

    @Test
    void aRecordStatusSyncCannotReadIsDeadLetteredAndTheNextOneIsShown() throws Exception {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.sendRaw(Topics.ADMISSIONS, "k", "{\"not\": \"an event\"".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            JobRef job = submit("after-a-bad-record");
            PyTorchJob manifest = Seed.job("default", "after-a-bad-record");
            client.send(Topics.ADMISSIONS, JobEvent.create("/muster/queue-service", job, Instant.now(),
                    new JobAdmitted(manifest, Seed.queuePolicy("default"), null, JobDemand.of(manifest).total())));

            dev.muster.model.event.DeadLetter letter = client.awaitDeadLetter(Topics.DEAD_LETTER,
                    dead -> "status-sync-service".equals(dead.service()) && "k".equals(dead.key()), DEADLINE);
            assertThat(letter.reason()).startsWith("not JSON");
            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleetCondition(job)).hasValueSatisfying(condition ->
                    assertThat(condition.reason()).isEqualTo("Placing")));
            get("/q/health/live").then().statusCode(200);
        }
    }

    @Test
    void aRefusedTreeSaysSoOnItselfWithAConditionAndAnEvent() throws Exception {
        fleet.resources(ElasticQuotaTree.class).inNamespace("kube-system").resource(Seed.tree()).createOr(existing -> existing.update());
        ConfigRef tree = new ConfigRef("ElasticQuotaTree", "kube-system", "elasticquotatree");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            // The same outcome twice (the queue read the tree again after a restart): told once.
            for (int i = 0; i < 2; i++) {
                client.send(Topics.ADMISSIONS, new ConfigEvent(java.util.UUID.randomUUID().toString(), "/muster/queue-service", Instant.now(),
                        new dev.muster.model.event.ConfigRejected(tree, List.of("spec.root.name: is required"), "no ElasticQuotaTree")));
            }

            await().atMost(DEADLINE).untilAsserted(() -> {
                ElasticQuotaTree shown = fleet.resources(ElasticQuotaTree.class).inNamespace("kube-system").withName("elasticquotatree").get();
                assertThat(shown.getStatus()).isNotNull();
                assertThat(shown.getStatus().conditions()).singleElement().satisfies(condition -> {
                    assertThat(condition.getType()).isEqualTo("Accepted");
                    assertThat(condition.getStatus()).isEqualTo("False");
                    assertThat(condition.getReason()).isEqualTo("Refused");
                    assertThat(condition.getMessage()).isEqualTo("refused: spec.root.name: is required. In force instead: no ElasticQuotaTree");
                });
                assertThat(fleet.v1().events().inNamespace("kube-system").list().getItems())
                        .anySatisfy(event -> {
                            assertThat(event.getInvolvedObject().getName()).isEqualTo("elasticquotatree");
                            assertThat(event.getType()).isEqualTo("Warning");
                            assertThat(event.getReason()).isEqualTo("Refused");
                        });
            });

            client.send(Topics.ADMISSIONS, new ConfigEvent(java.util.UUID.randomUUID().toString(), "/muster/queue-service", Instant.now(),
                    new ConfigAccepted(tree, false, Map.of())));

            await().atMost(DEADLINE).untilAsserted(() -> assertThat(fleet.resources(ElasticQuotaTree.class).inNamespace("kube-system")
                    .withName("elasticquotatree").get().getStatus().conditions()).singleElement()
                    .satisfies(condition -> assertThat(condition.getStatus()).isEqualTo("True")));
            assertThat(fleet.v1().events().inNamespace("kube-system").list().getItems())
                    .filteredOn(event -> event.getInvolvedObject().getName().equals("elasticquotatree") && "Refused".equals(event.getReason()))
                    .as("the second, identical refusal adds no Event").hasSize(1);
        }
    }

}
