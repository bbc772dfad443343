package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.runtime.EventProcessor.Consumed;
import io.cloudevents.CloudEvent;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.kafka.KafkaMessageFactory;

/** A CloudEvent the SDK sends in its default binary mode is read as the same event sent structured; a bad one is a clear error. */
class BinaryCloudEventsTest {

    private static final JobRef JOB = new JobRef("team-a", "train", "uid-1");
    private static final Instant TIME = Instant.parse("2026-12-04T04:00:00Z");

    /** The event as the CloudEvents SDK builds it from Muster's attributes, its data as JSON. */
    private static CloudEvent viaSdk(JobEvent event) throws Exception {
        JsonNode structured = MusterJson.json().readTree(EventSerde.serialize(event));
        return CloudEventBuilder.v1().withId(structured.path("id").asText()).withSource(URI.create(structured.path("source").asText()))
                .withType(structured.path("type").asText()).withSubject(structured.path("subject").asText())
                .withTime(OffsetDateTime.ofInstant(TIME, ZoneOffset.UTC)).withExtension("jobuid", JOB.uid()).withExtension("schemaversion", 1)
                .withDataContentType("application/json")
                .withData(MusterJson.json().writeValueAsBytes(structured.path("data"))).build();
    }

    /** As the SDK's Kafka binding writes it in binary mode: attributes in ce_* headers, the data as the value. */
    private static Consumed binary(CloudEvent event) {
        ProducerRecord<String, byte[]> record = KafkaMessageFactory.createWriter(Topics.SUBMISSIONS, null, null, JOB.uid()).writeBinary(event);
        return new Consumed(Topics.SUBMISSIONS, 0, 3, record.key(), record.value(), record.headers());
    }

    @Test
    void aBinaryModeEventReadsAsTheSameEventSentStructured() throws Exception {
        JobEvent deleted = JobEvent.create("/team-a/ci", JOB, TIME, new JobDeleted("by owner"));

        Consumed record = binary(viaSdk(deleted));

        assertThat(record.headers().lastHeader("ce_type")).as("the SDK wrote binary mode").isNotNull();
        assertThat(RecordReader.everything().read(record)).isInstanceOfSatisfying(RecordReader.Decoded.class, decoded ->
                assertThat(decoded.event()).isEqualTo(RecordReader.everything().read(new Consumed(Topics.SUBMISSIONS, 0, 4, JOB.uid(),
                        EventSerde.serialize(deleted))) instanceof RecordReader.Decoded structured ? structured.event() : null));
    }

    @Test
    void aBinaryModeEventWhoseHeadersCannotBeReadIsUnreadableWithTheReason() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("ce_specversion", "1.0".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_id", "1".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_source", "/x".getBytes(StandardCharsets.UTF_8));
        headers.add("ce_time", "yesterday".getBytes(StandardCharsets.UTF_8));

        RecordReader.Read read = RecordReader.everything().read(new Consumed(Topics.SUBMISSIONS, 0, 5, JOB.uid(), "{}".getBytes(StandardCharsets.UTF_8),
                headers));

        assertThat(read).isInstanceOfSatisfying(RecordReader.Unreadable.class, unreadable ->
                assertThat(unreadable.problem().getMessage()).startsWith("a binary-mode CloudEvent (ce_* headers) that cannot be read: "));
    }

    @Test
    void aRecordWithoutCloudEventsHeadersIsTakenAsItIs() throws Exception {
        byte[] value = "{\"specversion\":\"1.0\"}".getBytes(StandardCharsets.UTF_8);

        assertThat(BinaryCloudEvents.structured(new RecordHeaders(), value)).isSameAs(value);
        assertThat(BinaryCloudEvents.structured(null, value)).isSameAs(value);
    }
}
