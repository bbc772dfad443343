package dev.muster.placement.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.PlacementFailed;
import dev.muster.model.event.Topics;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import dev.muster.testing.service.ServiceHealthContract;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
class PlacementInputListenerTests extends ServiceHealthContract {

    @InjectKafkaBroker
    KafkaBroker broker;

    @ConfigProperty(name = "mp.messaging.incoming.inputs.topics")
    List<String> inputTopics;

    @ConfigProperty(name = "mp.messaging.outgoing.placements.topic")
    String placementsTopic;

    @ConfigProperty(name = "mp.messaging.outgoing.placement-results.topic")
    String resultsTopic;

    @Test
    void theChannelsUseTheSharedTopicNames() {
        assertThat(inputTopics).containsExactly(Topics.ADMISSIONS, Topics.INVENTORY, Topics.SUBMISSIONS, Topics.MEMBER_STATUS,
                Topics.PLACEMENT_RESULTS);
        assertThat(placementsTopic).isEqualTo(Topics.PLACEMENTS);
        assertThat(resultsTopic).as("what the executor and the ticker record is read back as an input").isEqualTo(Topics.PLACEMENT_RESULTS);
    }

    @Test
    void anAdmittedSeedJobWithNoMemberClustersFailsPlacementOverTheBroker() throws Exception {
        PyTorchJob job = Seed.job("default", "pytorch-test");
        PropagationPolicy policy = Manifests.read(Seed.text(Seed.POLICY_GANG), PropagationPolicy.class);
        JobEvent admitted = JobEvent.create("/muster/queue-service", new JobRef("default", "pytorch-test", UUID.randomUUID().toString()),
                Instant.now(), new JobAdmitted(job, policy, null, JobDemand.of(job).total()));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.ADMISSIONS, admitted);

            JobEvent failed = client.await(Topics.PLACEMENTS, event -> event.job().equals(admitted.job()), Duration.ofSeconds(30));

            assertThat(failed.source()).isEqualTo(GangPlacer.SOURCE);
            assertThat(failed.data()).isEqualTo(new PlacementFailed(Map.of(), GangPlacer.NO_MEMBERS));
        }
    }
}
