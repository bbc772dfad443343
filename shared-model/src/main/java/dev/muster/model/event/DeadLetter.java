package dev.muster.model.event;

import java.time.Instant;

/**
 * A record no service could process, kept with the reason so that nothing accepted is silently lost.
 *
 * @param reason    why it could not be processed
 * @param topic     where it was read, with its partition and offset
 * @param key       the original record key, if any
 * @param payload   the original value as text (UTF-8)
 * @param service   the service that gave up on it
 */
public record DeadLetter(String reason, String topic, int partition, long offset, String key, String payload,
                         String service, Instant time) {

    /** The dead letter of one consumed record, its payload kept as text. */
    public static DeadLetter of(EventProcessor.Consumed record, String reason, String service, Instant time) {
        String payload = record.value() == null ? null : new String(record.value(), java.nio.charset.StandardCharsets.UTF_8);
        return new DeadLetter(reason, record.topic(), record.partition(), record.offset(), record.key(), payload, service, time);
    }
}
