package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.Topics;
import dev.muster.model.validation.Limits;
import dev.muster.testing.kafka.InjectKafkaBroker;
import dev.muster.testing.kafka.JobEventClient;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.seed.Seed;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** A fleet's own limits, set in the service's configuration, judge what it reads from the first record on. */
@QuarkusTest
@WithTestResource(KafkaBrokerTestResource.class)
@TestProfile(ConfiguredLimitsTest.SmallGangs.class)
class ConfiguredLimitsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    /** Gangs of at most two pods: the seed's job, a master and two workers, is one too many. */
    public static class SmallGangs implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.limits.max-pods-per-gang", "2");
        }
    }

    @InjectKafkaBroker
    KafkaBroker broker;

    @AfterAll
    static void backToTheDefaults() {
        // The limits are the process's; the next test class in this JVM starts its own service with the defaults.
        Limits.use(Limits.DEFAULTS);
    }

    @Test
    void aGangOverTheConfiguredLimitIsRejectedNamingTheLimitAndItsSetting() {
        JobEvent submission = Seed.submission("small-gangs", "three-pods");
        try (JobEventClient client = new JobEventClient(broker.bootstrapServers())) {
            client.send(Topics.SUBMISSIONS, submission);

            JobEvent rejected = client.await(Topics.ADMISSIONS, event -> event.job().equals(submission.job())
                    && event.data() instanceof JobRejected, DEADLINE);

            assertThat(((JobRejected) rejected.data()).reasons()).isEqualTo(List.of("spec.pytorchReplicaSpecs: total replicas must be at most 2"
                    + " (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got 3"));
        }
    }
}
