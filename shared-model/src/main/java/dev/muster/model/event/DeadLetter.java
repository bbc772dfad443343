package dev.muster.model.event;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A record no service could process, kept with the reason so that nothing accepted is silently lost. Every service
 * writes this one format. What it keeps of the record is cut to fit well within a producer's request size (1 MiB by
 * default) whatever the record held: a dead letter that could not be produced would abort the transaction that
 * consumed the record, which would then be read again, and fail again, for good.
 *
 * @param reason           why it could not be processed, at most {@link #REASON_LIMIT} characters
 * @param topic            where it was read, with its partition and offset
 * @param key              the original record key, if any, at most {@link #KEY_LIMIT} characters
 * @param payload          the original value as text (UTF-8), at most {@link #PAYLOAD_LIMIT} characters
 * @param payloadBytes     the size of the original value in bytes
 * @param payloadTruncated whether {@code payload} holds only the beginning of the value
 * @param service          the service that gave up on it
 */
public record DeadLetter(String reason, String topic, int partition, long offset, String key, String payload, int payloadBytes,
                         boolean payloadTruncated, String service, Instant time) {

    /** The most characters of the payload kept: even escaped in JSON at six bytes each, far below 1 MiB. */
    public static final int PAYLOAD_LIMIT = 64 * 1024;
    public static final int KEY_LIMIT = 1024;
    public static final int REASON_LIMIT = 4096;

    /** The dead letter of the record read at this place, its payload kept as text. */
    public static DeadLetter of(String topic, int partition, long offset, String key, byte[] value, String reason, String service,
                                Instant time) {
        String payload = value == null ? null : new String(value, StandardCharsets.UTF_8);
        return new DeadLetter(cut(reason, REASON_LIMIT), topic, partition, offset, cut(key, KEY_LIMIT), cut(payload, PAYLOAD_LIMIT),
                value == null ? 0 : value.length, payload != null && payload.length() > PAYLOAD_LIMIT, service, time);
    }

    /** The text's first characters up to the limit, a surrogate pair never split. */
    private static String cut(String text, int limit) {
        if (text == null || text.length() <= limit) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return text.substring(0, end);
    }
}
