package dev.muster.runtime;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.jboss.logging.Logger;

/**
 * Aborts the transactions a previous owner of the inputs left open, by initializing its transactional ids once.
 * <p>
 * A killed owner's open transaction holds its offsets unstable and its outputs' last stable offset back: the instance
 * taking over cannot learn where to read from, nor restore its state, until the broker aborts the transaction on its own,
 * {@code transaction.timeout.ms} after it began and up to the broker's clean-up interval later (10 s each by default). Kafka's
 * zombie fencing does it at once: a producer initialized with the same transactional id bumps its epoch, and the
 * coordinator aborts what the old epoch left open. An owner that is not dead, only cut off, is fenced the same way, which
 * is what a new owner wants. Failing to fence is not fatal: the broker aborts the transaction when it times out.
 */
public class PredecessorFence {

    private static final Logger LOG = Logger.getLogger(PredecessorFence.class);
    /** How long fencing one id may block the consumer's thread; well within the group's rebalance timeout. */
    static final Duration PATIENCE = Duration.ofSeconds(10);

    private final Map<String, Object> connection;

    /** @param clientConfigs the consumer's settings: its bootstrap servers and its security settings are used */
    public PredecessorFence(Map<String, ?> clientConfigs) {
        connection = new HashMap<>();
        clientConfigs.forEach((name, value) -> {
            if (name.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) || name.equals(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)
                    || name.equals(CommonClientConfigs.CLIENT_DNS_LOOKUP_CONFIG) || name.startsWith("sasl.") || name.startsWith("ssl.")) {
                connection.put(name, value);
            }
        });
    }

    /** Fences each id: what it left open is aborted when this returns. */
    public void fence(Collection<String> transactionalIds) {
        for (String transactionalId : transactionalIds) {
            long started = System.nanoTime();
            Map<String, Object> settings = new HashMap<>(connection);
            settings.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) PATIENCE.toMillis());
            settings.put(ProducerConfig.CLIENT_ID_CONFIG, "muster-fence-" + transactionalId);
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.initTransactions();
                LOG.infof("fenced the previous owner's transactional id %s in %d ms: what it left open is aborted", transactionalId,
                        Duration.ofNanos(System.nanoTime() - started).toMillis());
            } catch (RuntimeException e) {
                LOG.warnf("could not fence the previous owner's transactional id %s (%s); the broker aborts what it left open when that"
                        + " times out", transactionalId, e.toString());
            }
        }
    }
}
