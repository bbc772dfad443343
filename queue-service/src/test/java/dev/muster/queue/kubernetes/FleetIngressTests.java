package dev.muster.queue.kubernetes;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.muster.fleetclient.ThrottledTokenRefresh;
import dev.muster.model.config.ConfigStatus;
import dev.muster.model.crd.MusterCrds;
import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.ConfigRejected;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.PolicyApplied;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.policy.PropagationPolicySpec;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;

/** The kubectl path: the seed's manifests applied to a fleet API server are queued and admitted as on the Kafka path. */
@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
@WithKubernetesTestServer(crud = true)
@TestProfile(FleetIngressTests.WatchingTheFleetApi.class)
class FleetIngressTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /**
     * Turns the fleet API watch on, which the test profile otherwise leaves off, resyncs every second (every object
     * delivered again, which must not duplicate anything) and compares the watch with a list every second (a watch
     * taken for deaf is started again, which must not either).
     */
    public static class WatchingTheFleetApi implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.queue.fleet-api.watch", "true", "muster.queue.fleet-api.resync", "1s",
                    "muster.queue.fleet-api.missed-deletion-check", "1s", "muster.watch.audit-interval", "1s");
        }
    }

    @InjectKafkaBroker
    KafkaBroker broker;

    @Inject
    KubernetesClient fleet;


    private PyTorchJob applyJob(String name) {
        return fleet.resource(Seed.job("default", name)).create();
    }

    private static JobEvent decision(JobEventClient client, PyTorchJob job, Class<?> type) {
        return client.await(Topics.ADMISSIONS, event -> event.job().uid().equals(job.getMetadata().getUid())
                && type.isInstance(event.data()), DEADLINE);
    }

    @Test
    void theFleetClientReadsItsTokenAgainAtMostOnceAMinuteNotBeforeEveryRequest() {
        assertThat(fleet.getConfiguration().getOauthTokenProvider()).isInstanceOf(ThrottledTokenRefresh.class);
    }

    @Test
    void theSeedAppliedToTheFleetApiRunsOneJobAndQueuesTheSecondUntilTheFirstIsDeleted() {
        fleet.resource(Seed.tree()).create();
        fleet.resource(Seed.queuePolicy("default")).create();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            PyTorchJob first = applyJob("pytorch-test");
            JobEvent admitted = decision(client, first, JobAdmitted.class);
            PyTorchJob second = applyJob("pytorch-test-2");
            JobEvent queued = decision(client, second, JobQueued.class);

            fleet.resource(first).delete();

            // Admitted, it was being run: its quota is released once placement reports it stopped on its member.
            JobEvent withdrawn = decision(client, first, dev.muster.model.event.JobWithdrawn.class);
            client.send(Topics.PLACEMENTS, withdrawn.followUp("/muster/placement-service", withdrawn.job(), java.time.Instant.now(),
                    new dev.muster.model.event.JobEvicted(null, "it was on no member cluster (not placed yet, or finished already)")));
            decision(client, second, JobAdmitted.class);
            assertThat(((JobAdmitted) admitted.data()).quotaLeaf()).isEqualTo("child-2");
            assertThat(((JobQueued) queued.data()).message()).isEqualTo("root/child-2: kube-queue/max-jobs 1/1 in use");
            // Several re-lists have happened by now; each object still produced one event per real change.
            assertThat(client.readAll(Topics.SUBMISSIONS)).filteredOn(event -> event.job().uid().equals(first.getMetadata().getUid()))
                    .extracting(event -> event.data().getClass().getSimpleName()).containsExactly("JobSubmitted", "JobDeleted");
            assertThat(client.readAll(Topics.SUBMISSIONS)).filteredOn(event -> event.job().uid().equals(second.getMetadata().getUid()))
                    .hasSize(1);
            assertThat(client.latestByKey(Topics.FLEET_CONFIG)).containsKey("PropagationPolicy/default/example-policy");
            assertThat(client.readAll(Topics.ADMISSIONS)).filteredOn(event -> event.job().uid().equals(second.getMetadata().getUid()))
                    .extracting(event -> event.data().getClass().getSimpleName()).containsExactly("JobQueued", "JobAdmitted");
        }
    }

    /**
     * Status sync writes the outcome of each change on the policy's status. Those writes are not changes of the policy:
     * applied again, each would be accepted again and its outcome written again, without end.
     */
    @Test
    void writesOfAPolicysStatusAreNotAppliedAgainAChangeOfItsSpecIs() {
        fleet.apiextensions().v1().customResourceDefinitions().resource(MusterCrds.of(PropagationPolicy.class)).createOr(existing -> existing.update());
        PropagationPolicy policy = fleet.resource(Seed.queuePolicy("status-writes")).create();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.await(Topics.FLEET_CONFIG, ConfigEvent.class, event -> appliedIn(event, "status-writes").isPresent(), DEADLINE);
            for (int i = 0; i < 3; i++) {
                PropagationPolicy current = fleet.resource(policy).get();
                current.setStatus(new ConfigStatus(List.of(new ConditionBuilder().withType(ConfigStatus.ACCEPTED).withStatus("True")
                        .withReason("Accepted").withMessage("in force").withLastTransitionTime(Instant.now().plusSeconds(i).toString()).build())));
                fleet.resource(current).updateStatus();
            }

            fleet.resources(PropagationPolicy.class).inNamespace("status-writes").withName(policy.getMetadata().getName()).edit(current -> {
                PropagationPolicySpec spec = current.getSpec();
                current.setSpec(new PropagationPolicySpec(spec.resourceSelectors(), spec.placement(), spec.suspension(), spec.failover(), false,
                        spec.additionalProperties()));
                return current;
            });

            client.await(Topics.FLEET_CONFIG, ConfigEvent.class, event -> appliedIn(event, "status-writes")
                    .filter(applied -> Boolean.FALSE.equals(applied.getSpec().propagateDeps())).isPresent(), DEADLINE);
            assertThat(client.readAll(Topics.FLEET_CONFIG, ConfigEvent.class)).filteredOn(event -> appliedIn(event, "status-writes").isPresent())
                    .as("one event for its creation and one for the change of its spec").hasSize(2);
        }
    }

    private static Optional<PropagationPolicy> appliedIn(ConfigEvent event, String namespace) {
        return event.data() instanceof PolicyApplied applied && namespace.equals(applied.policy().getMetadata().getNamespace())
                ? Optional.of(applied.policy()) : Optional.empty();
    }

    @Test
    void theFleetObjectOfAJobSubmittedOnTheKafkaPathIsNotSubmittedAgainAndItsDeletionDeletesTheJob() {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            // A namespace of its own, out of the way of the seed's quota in the other test.
            PyTorchJob shown = fleet.resource(FleetJobs.forKafkaSubmission(Seed.job("elsewhere", "from-kafka"), "kafka-uid")).create();
            PyTorchJob applied = fleet.resource(Seed.job("elsewhere", "applied-after")).create();
            client.await(Topics.SUBMISSIONS, event -> event.job().uid().equals(applied.getMetadata().getUid()), DEADLINE);

            fleet.resource(shown).delete();

            JobEvent deleted = client.await(Topics.SUBMISSIONS, event -> event.job().uid().equals("kafka-uid"), DEADLINE);
            assertThat(deleted.data()).isInstanceOf(JobDeleted.class);
            assertThat(client.readAll(Topics.SUBMISSIONS)).filteredOn(event -> event.job().uid().equals("kafka-uid")
                    || event.job().uid().equals(shown.getMetadata().getUid()))
                    .extracting(event -> event.data().getClass().getSimpleName()).containsExactly("JobDeleted");
        }
    }

    /**
     * A job submitted through the fleet API whose object was deleted while the queue was down (here: one a previous
     * instance passed on, never created on this fleet API): the watch never reports that deletion, so the queue finds
     * the job missing from the fleet API and deletes it, and it alone.
     */
    @Test
    void aJobDeletedFromTheFleetApiWhileTheQueueWasNotWatchingIsDeletedOnceItIsFoundMissing() {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            PyTorchJob stays = fleet.resource(Seed.job("missed", "stays")).create();
            JobRef gone = new JobRef("missed", "gone", java.util.UUID.randomUUID().toString());
            client.send(Topics.SUBMISSIONS, JobEvent.create(FleetJobs.INGRESS_SOURCE, gone, java.time.Instant.now(),
                    new dev.muster.model.event.JobSubmitted(Seed.job("missed", "gone"))));

            JobEvent deleted = client.await(Topics.SUBMISSIONS, event -> event.job().equals(gone) && event.data() instanceof JobDeleted, DEADLINE);

            assertThat(((JobDeleted) deleted.data()).reason()).isEqualTo("deleted from the fleet API while the queue was not watching");
            assertThat(deleted.source()).isEqualTo(FleetJobs.INGRESS_SOURCE);
            client.await(Topics.SUBMISSIONS, event -> event.job().uid().equals(stays.getMetadata().getUid()), DEADLINE);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> client.readAll(Topics.SUBMISSIONS).stream()
                    .noneMatch(event -> event.job().uid().equals(stays.getMetadata().getUid()) && event.data() instanceof JobDeleted));
        }
    }

    /**
     * A job submitted on Kafka whose fleet object status sync wrote and reported, and which is not on the fleet API (here:
     * written to another fleet API, as its object deleted while the queue was down would be) is deleted once found
     * missing, and so is one whose object there is another than it was shown with (a long storm saw status sync write a
     * deleted job's object again from its submission, read again after a restart, while the queue's watch was down: the
     * job came back). One whose object is there stays, and so does one never shown there.
     */
    @Test
    void aKafkaJobShownOnTheFleetApiAndDeletedThereWhileTheQueueWasNotWatchingIsDeleted() {
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            JobEvent stays = Seed.submission("shown", "stays");
            PyTorchJob staysObject = fleet.resource(FleetJobs.forKafkaSubmission(Seed.job("shown", "stays"), stays.job().uid())).create();
            JobEvent gone = Seed.submission("shown", "gone");
            JobEvent neverShown = Seed.submission("shown", "never-shown");
            // Shown with an object deleted since; status sync, reading its submission again, wrote the one there now.
            JobEvent writtenAgain = Seed.submission("shown", "written-again");
            fleet.resource(FleetJobs.forKafkaSubmission(Seed.job("shown", "written-again"), writtenAgain.job().uid())).create();
            for (JobEvent submitted : List.of(stays, gone, neverShown, writtenAgain)) {
                client.send(Topics.SUBMISSIONS, submitted);
            }
            Map<JobEvent, String> shownWith = Map.of(stays, staysObject.getMetadata().getUid(), gone, "object-of-gone",
                    writtenAgain, "object-deleted-since");
            shownWith.forEach((submitted, objectUid) -> client.send(Topics.MEMBER_STATUS, JobEvent.create("/muster/status-sync-service",
                    submitted.job(), java.time.Instant.now(), new dev.muster.model.event.JobShown(objectUid))));

            JobEvent deleted = client.await(Topics.SUBMISSIONS, event -> event.job().equals(gone.job()) && event.data() instanceof JobDeleted,
                    DEADLINE);
            JobEvent replaced = client.await(Topics.SUBMISSIONS, event -> event.job().equals(writtenAgain.job()) && event.data() instanceof JobDeleted,
                    DEADLINE);

            assertThat(((JobDeleted) deleted.data()).reason()).isEqualTo("deleted from the fleet API while the queue was not watching");
            assertThat(deleted.source()).isEqualTo(FleetJobs.INGRESS_SOURCE);
            assertThat(((JobDeleted) replaced.data()).reason()).startsWith("deleted from the fleet API while the queue was not watching (object "
                    + "object-deleted-since; the one there now, ").endsWith(", was written again since)");
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> client.readAll(Topics.SUBMISSIONS).stream()
                    .noneMatch(event -> (event.job().equals(stays.job()) || event.job().equals(neverShown.job())) && event.data() instanceof JobDeleted));
        }
    }

    /**
     * What {@code kubectl apply} stores on an API server without schemas: objects the queue cannot read into their types.
     * Each is refused on its own, with the field and what is wrong, and the watches go on: a good job after them runs.
     */
    @Test
    @SuppressWarnings("unchecked")
    void objectsThatCannotBeReadAreRefusedOneByOneAndEverythingElseFlows() {
        GenericKubernetesResource badJob = raw(Seed.job("poison", "bad-two"));
        replicaSpec(badJob, "Worker").put("replicas", "two");
        GenericKubernetesResource badPolicy = raw(Seed.queuePolicy("poison"));
        badPolicy.getMetadata().setName("bad-policy");
        ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) badPolicy.getAdditionalProperties()
                .get("spec")).get("failover")).get("application")).get("decisionConditions")).put("tolerationSeconds", "soon");
        GenericKubernetesResource badTree = raw(Seed.tree());
        badTree.getMetadata().setName("bad-tree");
        ((Map<String, Object>) ((Map<String, Object>) badTree.getAdditionalProperties().get("spec")).get("root")).put("children", "oops");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            create(badJob, PyTorchJob.class);
            create(badPolicy, PropagationPolicy.class);
            create(badTree, ElasticQuotaTree.class);
            fleet.resource(Seed.queuePolicy("flows")).create();
            PyTorchJob good = fleet.resource(Seed.job("flows", "good-after")).create();

            JobEvent rejected = client.await(Topics.ADMISSIONS, event -> event.job().name().equals("bad-two") && event.data() instanceof JobRejected,
                    DEADLINE);
            ConfigRejected policy = refusal(client, "bad-policy");
            ConfigRejected tree = refusal(client, "bad-tree");
            JobEvent goodQueued = decision(client, good, JobQueued.class);

            assertThat(((JobRejected) rejected.data()).reasons()).singleElement().asString()
                    .contains("spec.pytorchReplicaSpecs.Worker.replicas: expected an integer, got \"two\"");
            assertThat(policy.reasons()).singleElement().asString()
                    .contains("spec.failover.application.decisionConditions.tolerationSeconds: expected an integer, got \"soon\"");
            assertThat(tree.reasons()).singleElement().asString().contains("spec.root.children: expected a list");
            assertThat(goodQueued.job().name()).isEqualTo("good-after");
            given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                    .body("checks.find { it.name == 'Kubernetes watches' }.data.'fleet pytorchjobs'", equalTo("watching"));
        }
    }

    private void create(GenericKubernetesResource object, Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type) {
        fleet.genericKubernetesResources(io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.fromResourceType(type))
                .inNamespace(object.getMetadata().getNamespace()).resource(object).create();
    }

    private static ConfigRejected refusal(JobEventClient client, String name) {
        return (ConfigRejected) client.await(Topics.ADMISSIONS, ConfigEvent.class,
                event -> event.data() instanceof ConfigRejected rejected && rejected.object().name().equals(name), DEADLINE).data();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> replicaSpec(GenericKubernetesResource job, String type) {
        return (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) job.getAdditionalProperties().get("spec"))
                .get("pytorchReplicaSpecs")).get(type);
    }

    private static GenericKubernetesResource raw(Object object) {
        return MusterJson.json().convertValue(object, GenericKubernetesResource.class);
    }
    /** As on Kubernetes: a job takes the priority its PriorityClass has when the job is created; a class that does not exist refuses it. */
    @Test
    void aJobTakesThePriorityOfItsClassWhenItIsCreatedAndOneNamingNoExistingClassIsRejected() {
        fleet.resource(new io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder().withNewMetadata().withName("research-high")
                .endMetadata().withValue(5000).build()).create();
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            PyTorchJob high = fleet.resource(Seed.job("default", "with-class", "research-high")).create();
            PyTorchJob unknown = fleet.resource(Seed.job("default", "with-no-such-class", "nowhere")).create();

            ConfigEvent applied = client.await(Topics.FLEET_CONFIG, ConfigEvent.class,
                    event -> event.data() instanceof dev.muster.model.event.PriorityClassApplied, DEADLINE);
            assertThat(applied.data()).isEqualTo(new dev.muster.model.event.PriorityClassApplied("research-high", 5000, false));
            JobEvent submitted = client.await(Topics.SUBMISSIONS, event -> event.job().uid().equals(high.getMetadata().getUid()), DEADLINE);
            assertThat(((dev.muster.model.event.JobSubmitted) submitted.data()).priority()).isEqualTo(5000);
            JobEvent rejected = decision(client, unknown, JobRejected.class);
            assertThat(((JobRejected) rejected.data()).reasons())
                    .containsExactly("spec.runPolicy.schedulingPolicy.priorityClass: no PriorityClass with name nowhere was found");
        } finally {
            fleet.resources(PyTorchJob.class).inNamespace("default").withName("with-class").delete();
            fleet.resources(PyTorchJob.class).inNamespace("default").withName("with-no-such-class").delete();
        }
    }
}
