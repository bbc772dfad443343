package dev.muster.testing.kafka;

import java.util.Map;

import dev.muster.model.event.Topics;

/** Creates every Muster topic on a test broker as a deployment would: compacted and single-partition where {@link Topics} says. */
public final class MusterTopics {

    private MusterTopics() {
    }

    public static void create(KafkaBroker broker, int partitions) {
        for (String topic : Topics.ALL) {
            broker.createTopic(topic, Topics.SINGLE_PARTITION.contains(topic) ? 1 : partitions,
                    Topics.COMPACTED.contains(topic) ? Map.of("cleanup.policy", "compact") : Map.of());
        }
    }
}
