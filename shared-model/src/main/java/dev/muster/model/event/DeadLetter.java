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
}
