package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.Topics;
import dev.muster.runtime.EventProcessor.Consumed;

/** Every service reads what it consumes through one reader, which tells each record's fate and never throws. */
class RecordReaderTest {

    private static final JobRef JOB = new JobRef("default", "j", "uid-1");
    private static final Instant TIME = Instant.parse("2026-12-02T03:00:00Z");

    private static Consumed on(String topic, String key, byte[] value) {
        return new Consumed(topic, 0, 7, key, value);
    }

    private static byte[] deleted() {
        return EventSerde.serialize(JobEvent.create("/client", JOB, TIME, new JobDeleted("by owner")));
    }

    @Test
    void anEventTheCoreActsOnIsDecoded() {
        RecordReader.Read read = RecordReader.everything().read(on(Topics.SUBMISSIONS, JOB.uid(), deleted()));

        assertThat(read).isInstanceOfSatisfying(RecordReader.Decoded.class,
                decoded -> assertThat(((JobEvent) decoded.event()).data()).isEqualTo(new JobDeleted("by owner")));
    }

    @Test
    void anotherServicesEventIsPassedOverWithoutAReason() {
        RecordReader reader = RecordReader.everything().readingOnly(EnumSet.of(EventType.ADMITTED));

        assertThat(reader.read(on(Topics.SUBMISSIONS, JOB.uid(), deleted()))).isEqualTo(new RecordReader.PassedOver(java.util.Optional.empty()));
    }

    @Test
    void garbageEmptinessAndNullAreUnreadableWithTheReason() {
        RecordReader reader = RecordReader.everything();

        assertThat(reader.read(on(Topics.PLACEMENTS, "k", "{oops".getBytes(StandardCharsets.UTF_8))))
                .isInstanceOfSatisfying(RecordReader.Unreadable.class, unreadable -> assertThat(unreadable.problem()).hasMessageStartingWith("not JSON"));
        assertThat(reader.read(on(Topics.PLACEMENTS, "k", null)))
                .isInstanceOfSatisfying(RecordReader.Unreadable.class, unreadable -> assertThat(unreadable.problem()).hasMessage("empty record"));
    }

    @Test
    void aContractBreachIsReportedWhereProducersWriteAndPassedOverWithItsReasonElsewhere() {
        byte[] withdrawn = EventSerde.serialize(JobEvent.create("/forger", JOB, TIME, new JobWithdrawn("forged")));
        RecordReader reader = RecordReader.everything().reporting(Topics.SUBMISSIONS);

        assertThat(reader.read(on(Topics.SUBMISSIONS, JOB.uid(), withdrawn))).isInstanceOfSatisfying(RecordReader.Unreadable.class,
                unreadable -> assertThat(unreadable.problem()).hasMessageContaining("dev.muster.job.withdrawn is not accepted on muster.job.submissions"));
        assertThat(reader.read(on(Topics.PLACEMENTS, "not-its-uid", deleted()))).isInstanceOfSatisfying(RecordReader.PassedOver.class,
                passed -> assertThat(passed.breach()).hasValueSatisfying(breach -> assertThat(breach).contains("is not accepted on muster.job.placements")));
    }
}
