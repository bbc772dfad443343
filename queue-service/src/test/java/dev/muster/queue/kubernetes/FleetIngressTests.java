package dev.muster.queue.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.muster.model.client.ThrottledTokenRefresh;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.Topics;
import dev.muster.model.job.FleetJobs;
import dev.muster.model.job.PyTorchJob;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
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
     * Turns the fleet API watch on, which the test profile otherwise leaves off, and re-lists every second:
     * a re-list delivers every object again, as after a watch gap, and must not duplicate anything.
     */
    public static class WatchingTheFleetApi implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.queue.fleet-api.watch", "true", "muster.queue.fleet-api.resync", "1s");
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
}
