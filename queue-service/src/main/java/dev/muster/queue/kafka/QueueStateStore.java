package dev.muster.queue.kafka;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Default;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventProcessor.Produced;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.queue.config.QueueConfig;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.queue.core.queueing.QueueState.Entry;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaSettings;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;

/**
 * Owns the service's {@link FleetQueue} and rebuilds it from the compacted {@link Topics#QUEUE_STATE} topic
 * whenever this instance is given the input partitions: at start, and when it takes over from another
 * instance. The state topic is written in the same transactions as the decisions and the consumed offsets,
 * so what it holds is exactly the state after the last committed input.
 */
@ApplicationScoped
@Default
@Identifier(QueueStateStore.REBALANCE_LISTENER)
public class QueueStateStore implements KafkaConsumerRebalanceListener {

    static final String REBALANCE_LISTENER = "queue-state-restore";
    private static final Logger LOG = Logger.getLogger(QueueStateStore.class);
    private static final Duration POLL = Duration.ofMillis(200);

    private final QueueConfig config;
    private final QueueMetrics metrics;
    private final String bootstrapServers;
    private final Clock clock = Clock.systemUTC();
    private FleetQueue queue;

    QueueStateStore(QueueConfig config, QueueMetrics metrics, @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers) {
        this.config = config;
        this.metrics = metrics;
        this.bootstrapServers = bootstrapServers;
        this.queue = new FleetQueue(settings(), config.priorityClasses(), clock);
        metrics.observe(this::snapshot);
    }

    private synchronized QueueMetrics.Snapshot snapshot() {
        return QueueMetrics.snapshotOf(queue.quota(), clock.instant());
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        if (!partitions.isEmpty()) {
            restore();
        }
    }

    /** Hands one consumed event to the queue; serialized with restores, which may run on the consumer's thread. */
    List<JobEvent> handle(MusterEvent event) {
        long start = System.nanoTime();
        List<JobEvent> out;
        QuotaAdmission quota;
        synchronized (this) {
            out = queue.handle(event);
            quota = queue.quota();
        }
        // Outside the lock: a scrape reading a gauge takes this lock, and registering meters takes the registry's.
        metrics.recorded(out, System.nanoTime() - start, quota);
        return out;
    }

    synchronized List<Produced> drainState() {
        return queue.drainState().stream().map(entry -> new Produced(Topics.QUEUE_STATE, entry.key(), entry.value())).toList();
    }

    private void restore() {
        QuotaAdmission quota;
        synchronized (this) {
            quota = restoreLocked();
        }
        metrics.recorded(List.of(), 0, quota);
    }

    private QuotaAdmission restoreLocked() {
        long start = System.nanoTime();
        Map<String, byte[]> latest = readStateTopic();
        List<Entry> entries = new ArrayList<>();
        latest.forEach((key, value) -> entries.add(new Entry(key, value)));
        queue = FleetQueue.restore(settings(), config.priorityClasses(), clock, entries);
        LOG.infof("queue state restored from %s: %d records, %d tracked jobs, in %d ms", Topics.QUEUE_STATE, entries.size(),
                queue.jobs().size(), (System.nanoTime() - start) / 1_000_000);
        return queue.quota();
    }

    /** The latest value of every key on the state topic (tombstones removing keys), up to its end now. */
    private Map<String, byte[]> readStateTopic() {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        try (KafkaConsumer<String, byte[]> reader = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = reader.partitionsFor(Topics.QUEUE_STATE, Duration.ofSeconds(30)).stream()
                    .map(info -> new TopicPartition(Topics.QUEUE_STATE, info.partition())).toList();
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = reader.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> reader.position(partition) < end.get(partition))) {
                for (ConsumerRecord<String, byte[]> record : reader.poll(POLL)) {
                    if (record.value() == null) {
                        latest.remove(record.key());
                    } else {
                        latest.put(record.key(), record.value());
                    }
                }
            }
        }
        return latest;
    }

    private QuotaSettings settings() {
        return new QuotaSettings(config.starvationAge(), config.giveBackBackoff(), config.strictFifoLeaves().orElse(java.util.Set.of()));
    }
}
