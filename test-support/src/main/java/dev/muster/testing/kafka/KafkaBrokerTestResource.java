package dev.muster.testing.kafka;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts a real Kafka broker for a Quarkus test, creates every Muster topic (compacted and single-partition
 * where {@link Topics} says so), and points the service at it
 * ({@code kafka.bootstrap.servers}). Tests reach the broker through a field marked {@link InjectKafkaBroker},
 * e.g. to stop and restart it. Init argument {@code partitions} (default 3) sets the topics' partition count.
 */
public final class KafkaBrokerTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String PARTITIONS = "partitions";

    private int partitions = 3;
    private KafkaBroker broker;

    @Override
    public void init(Map<String, String> initArgs) {
        partitions = Integer.parseInt(initArgs.getOrDefault(PARTITIONS, "3"));
    }

    @Override
    public Map<String, String> start() {
        broker = KafkaBroker.start();
        MusterTopics.create(broker, partitions);
        return Map.of("kafka.bootstrap.servers", broker.bootstrapServers());
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(broker, new TestInjector.AnnotatedAndMatchesType(InjectKafkaBroker.class, KafkaBroker.class));
    }

    @Override
    public void stop() {
        if (broker != null) {
            broker.close();
        }
    }
}
