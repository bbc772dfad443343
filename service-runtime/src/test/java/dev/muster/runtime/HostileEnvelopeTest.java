package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;

/**
 * Records a producer may send on the submissions topic that look like events but must not be taken as they are:
 * each is dead-lettered with the reason, and its job told, instead of being obeyed, passed over or silently mended.
 */
class HostileEnvelopeTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:00:00Z"), ZoneOffset.UTC);
    private static final JobRef JOB = new JobRef("default", "j", "uid-1");

    private final List<MusterEvent> handled = new ArrayList<>();
    private final EventProcessor queue = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, event -> {
        handled.add(event);
        return List.of();
    }).rejectingUnreadableJobs("/muster/queue-service").reportingContractBreaches(Topics.SUBMISSIONS);

    private static String envelope(String type, String extra, String data) {
        return "{\"specversion\":\"1.0\",\"type\":\"" + type + "\",\"id\":\"1\",\"source\":\"/p\",\"subject\":\"default/j\","
                + "\"jobuid\":\"uid-1\",\"time\":\"2026-11-29T17:00:00Z\"" + extra + ",\"data\":" + data + "}";
    }

    private static final String DELETION = envelope("dev.muster.job.deleted", "", "{\"reason\":\"owner\"}");

    private List<Produced> send(String key, String payload) {
        return queue.process(new Consumed(Topics.SUBMISSIONS, 0, 7, key, payload.getBytes(StandardCharsets.UTF_8)));
    }

    private static String reason(List<Produced> produced) throws Exception {
        assertThat(produced).extracting(Produced::topic).containsExactly(Topics.DEAD_LETTER, Topics.ADMISSIONS);
        DeadLetter letter = MusterJson.json().readValue(produced.get(0).value(), DeadLetter.class);
        JobEvent rejected = (JobEvent) EventSerde.deserialize(produced.get(1).value());
        assertThat(rejected.job()).isEqualTo(JOB);
        assertThat(((JobRejected) rejected.data()).reasons()).containsExactly(letter.reason());
        return letter.reason();
    }

    @Test
    void aRecordWithoutAKeyIsRefused() throws Exception {
        assertThat(reason(send(null, DELETION))).isEqualTo("the record has no key; it must be the event's jobuid \"uid-1\"");
        assertThat(handled).isEmpty();
    }

    @Test
    void aKeyThatIsNotTheJobsUidIsRefused() throws Exception {
        assertThat(reason(send("uid-2", DELETION))).isEqualTo("the record's key \"uid-2\" is not the event's jobuid \"uid-1\"");
        // Bytes that are not UTF-8 are read as replacement characters: no uid is made of them.
        String garbage = new String(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, 0x41}, StandardCharsets.UTF_8);
        assertThat(reason(send(garbage, DELETION))).startsWith("the record's key ");
        assertThat(handled).isEmpty();
    }

    @Test
    void aDecisionOnTheSubmissionsTopicIsRefusedNotObeyedNorPassedOver() throws Exception {
        String admitted = envelope("dev.muster.job.admitted", "", "{\"demand\":{}}");

        assertThat(reason(send("uid-1", admitted))).isEqualTo("dev.muster.job.admitted is not accepted on muster.job.submissions, which takes"
                + " only dev.muster.job.deleted, dev.muster.job.submitted");
        assertThat(handled).isEmpty();
    }

    @Test
    void aSchemaVersionThatIsNotAnIntegerIsRefused() throws Exception {
        assertThat(reason(send("uid-1", envelope("dev.muster.job.deleted", ",\"schemaversion\":\"abc\"", "{}"))))
                .isEqualTo("schemaversion must be an integer, got \"abc\"");
        assertThat(reason(send("uid-1", envelope("dev.muster.job.deleted", ",\"schemaversion\":1.5", "{}"))))
                .isEqualTo("schemaversion must be an integer, got 1.5");
        // As binary-mode headers carry it, a string of digits is an integer.
        send("uid-1", envelope("dev.muster.job.deleted", ",\"schemaversion\":\"1\"", "{}"));
        assertThat(handled).hasSize(1);
    }

    @Test
    void aWellFormedDeletionUnderTheRightKeyIsHandled() {
        assertThat(send("uid-1", DELETION)).isEmpty();
        assertThat(handled).singleElement().isInstanceOf(JobEvent.class);
    }

    @Test
    void aServiceThatDoesNotReportPassesOverWhatBreaksATopicsContractInsteadOfActingOnIt() {
        List<MusterEvent> placed = new ArrayList<>();
        EventProcessor placement = new EventProcessor("placement-service", Topics.PLACEMENTS, CLOCK, event -> {
            placed.add(event);
            return List.of();
        }).readingOnly(java.util.Set.of(EventType.ADMITTED, EventType.DELETED));
        String forged = envelope("dev.muster.job.admitted", "", "{\"demand\":{}}");

        assertThat(placement.process(new Consumed(Topics.SUBMISSIONS, 0, 1, "uid-1", forged.getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(placement.process(new Consumed(Topics.SUBMISSIONS, 0, 2, "uid-2", DELETION.getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(placed).as("neither the forged admission nor the mis-keyed deletion").isEmpty();
        assertThat(placement.process(new Consumed(Topics.ADMISSIONS, 0, 3, "uid-1", forged.getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(placed).as("an admission on the admissions topic").hasSize(1);
    }
}
