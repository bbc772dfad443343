package dev.muster.runtime;

import org.apache.kafka.common.header.Headers;

import dev.muster.model.event.MalformedEventException;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.cloudevents.kafka.KafkaMessageFactory;

/**
 * Producers may send a CloudEvent in either of the Kafka protocol binding's content modes: structured (the whole event
 * as JSON in the value, what Muster writes) or binary (the attributes in {@code ce_*} headers and the data in the value,
 * the CloudEvents SDK's default). A binary one is read with the SDK and turned into the structured form here, where it
 * enters, so everything past this point reads one form. Nothing a header holds can make this throw anything but a
 * {@link MalformedEventException} that says what is wrong.
 */
public final class BinaryCloudEvents {

    /** The header that marks a binary-mode CloudEvent: the binding requires {@code ce_specversion} in that mode. */
    static final String SPEC_VERSION_HEADER = "ce_specversion";
    private static final JsonFormat STRUCTURED = new JsonFormat();

    private BinaryCloudEvents() {
    }

    /** Whether the record is a binary-mode CloudEvent. */
    public static boolean isBinary(Headers headers) {
        return headers != null && headers.lastHeader(SPEC_VERSION_HEADER) != null;
    }

    /**
     * The record's event as a structured-mode JSON CloudEvent: the value itself unless the headers make it a binary-mode one.
     *
     * @throws MalformedEventException when a binary-mode event's attributes cannot be read
     */
    public static byte[] structured(Headers headers, byte[] value) throws MalformedEventException {
        if (!isBinary(headers)) {
            return value;
        }
        CloudEvent event;
        try {
            event = KafkaMessageFactory.createReader(headers, value).toEvent();
        } catch (RuntimeException e) {
            throw new MalformedEventException("a binary-mode CloudEvent (ce_* headers) that cannot be read: " + e.getMessage());
        }
        try {
            return STRUCTURED.serialize(event);
        } catch (RuntimeException e) {
            throw new MalformedEventException("a binary-mode CloudEvent whose data cannot be written as JSON (datacontenttype "
                    + event.getDataContentType() + "): " + e.getMessage());
        }
    }
}
