package dev.muster.statussync.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberStatusChanged;
import dev.muster.model.event.Topics;
import dev.muster.model.job.ReplicaType;
import dev.muster.statussync.core.member.MemberStatusTracker;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.service.ServiceHealthContract;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
class JobEventListenerTests extends ServiceHealthContract {

    @InjectKafkaBroker
    KafkaBroker broker;

    @ConfigProperty(name = "mp.messaging.incoming.job-events.topics")
    List<String> jobEventTopics;

    @ConfigProperty(name = "mp.messaging.outgoing.member-status.topic")
    String memberStatusTopic;

    @Test
    void theChannelsUseTheSharedTopicNames() {
        // The quota tree is taken from the queue's decision on it (on the admissions topic), never from the tree as applied.
        assertThat(jobEventTopics).containsExactlyInAnyOrder(Topics.SUBMISSIONS, Topics.ADMISSIONS, Topics.PLACEMENTS, Topics.MEMBER_STATUS);
        assertThat(memberStatusTopic).isEqualTo(Topics.MEMBER_STATUS);
    }

    @Test
    void aJobBoundToAClusterItCannotWatchIsReportedUnknownOverTheBroker() {
        JobEvent bound = JobEvent.create("/muster/placement-service", new JobRef("default", "pytorch-test", UUID.randomUUID().toString()),
                Instant.now(), JobBound.of("cluster-x", null, Map.of(ReplicaType.MASTER, 1, ReplicaType.WORKER, 2)));
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.PLACEMENTS, bound);

            JobEvent status = client.await(Topics.MEMBER_STATUS, event -> event.job().equals(bound.job()), Duration.ofSeconds(30));

            assertThat(status.source()).isEqualTo(MemberStatusTracker.SOURCE);
            assertThat(status.data()).isInstanceOfSatisfying(MemberStatusChanged.class, changed -> {
                assertThat(changed.cluster()).isEqualTo("cluster-x");
                assertThat(changed.state()).isEqualTo("Unknown");
                assertThat(changed.reason()).isEqualTo("MemberNotConfigured");
            });
        }
    }
}
