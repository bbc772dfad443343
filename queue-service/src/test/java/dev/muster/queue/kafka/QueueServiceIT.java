package dev.muster.queue.kafka;

import java.util.Map;

import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.service.ServiceHealthContract;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/** The packaged service ({@code java -jar quarkus-run.jar}) starts against a real broker and answers health and metrics. */
@QuarkusIntegrationTest
@WithTestResource(KafkaBrokerTestResource.class)
@TestProfile(QueueServiceIT.KafkaPathOnly.class)
class QueueServiceIT extends ServiceHealthContract {

    /** No fleet API here to watch: readiness would rightly be DOWN while the service watched one that is not there. */
    public static class KafkaPathOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.queue.fleet-api.watch", "false");
        }
    }
}
