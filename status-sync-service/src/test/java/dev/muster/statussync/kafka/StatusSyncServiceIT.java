package dev.muster.statussync.kafka;

import dev.muster.testing.kafka.KafkaBrokerTestResource;
import dev.muster.testing.service.ServiceHealthContract;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;

/** The packaged service ({@code java -jar quarkus-run.jar}) starts against a real broker and answers health and metrics. */
@QuarkusIntegrationTest
@WithTestResource(KafkaBrokerTestResource.class)
class StatusSyncServiceIT extends ServiceHealthContract {
}
