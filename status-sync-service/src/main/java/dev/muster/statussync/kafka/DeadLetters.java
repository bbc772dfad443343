package dev.muster.statussync.kafka;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.statussync.config.Channels;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;

/** Sends the records status sync cannot take to {@link Topics#DEAD_LETTER}, with the reason and the payload. */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);
    private static final String SERVICE = "status-sync-service";

    private final Emitter<byte[]> out;
    private final Clock clock = Clock.systemUTC();

    DeadLetters(@Channel(Channels.MEMBER_STATUS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> out) {
        this.out = out;
    }

    void send(KafkaRecord<String, byte[]> record, String reason) {
        long offset = record.getMetadata(IncomingKafkaRecordMetadata.class).map(IncomingKafkaRecordMetadata::getOffset).orElse(-1L);
        DeadLetter letter = DeadLetter.of(record.getTopic(), record.getPartition(), offset, record.getKey(), record.getPayload(), reason, SERVICE,
                clock.instant());
        LOG.warnf("dead-lettering %s-%d@%d: %s", letter.topic(), letter.partition(), offset, letter.reason());
        out.send(KafkaRecord.of(Topics.DEAD_LETTER, letter.key(), MusterJson.toBytes(letter)));
    }
}
