package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.event.DeadLetter;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.EventType;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.RejectedEventException;
import dev.muster.model.event.Topics;
import dev.muster.model.json.MusterJson;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;

class EventProcessorTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-29T17:00:00Z"), ZoneOffset.UTC);
    private static final JobRef JOB = new JobRef("default", "j", "uid-1");

    private static Consumed consumed(byte[] value) {
        return new Consumed(Topics.SUBMISSIONS, 2, 41, "uid-1", value);
    }

    private static DeadLetter deadLetter(Produced produced) throws Exception {
        return MusterJson.json().readValue(produced.value(), DeadLetter.class);
    }

    @Test
    void theCoresDecisionsGoToTheOutputTopicKeyedByJob() throws Exception {
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted("by owner"));
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK,
                event -> List.of(((JobEvent) event).followUp("/test", ((JobEvent) event).job(), CLOCK.instant(), new JobRejected(List.of("because")))));

        List<Produced> produced = processor.process(consumed(EventSerde.serialize(deleted)));

        assertThat(produced).singleElement().satisfies(record -> {
            assertThat(record.topic()).isEqualTo(Topics.ADMISSIONS);
            assertThat(record.key()).isEqualTo("uid-1");
            assertThat(((JobEvent) EventSerde.deserialize(record.value())).data()).isEqualTo(new JobRejected(List.of("because")));
        });
    }

    /** A core that decides once a batch: what it decides at the batch's end goes out with the state it changed, and a failure there is logged, not thrown. */
    @Test
    void whatTheCoreDecidesAtABatchsEndGoesOutWithItsStateAndAFailureThereStopsNothing() {
        JobEvent rejected = JobEvent.create("/test", JOB, CLOCK.instant(), new JobRejected(List.of("at the batch's end")));
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, new EventProcessor.Handler() {
            @Override
            public List<MusterEvent> handle(MusterEvent event) {
                return List.of();
            }

            @Override
            public List<MusterEvent> batchEnded() {
                if (failing.get()) {
                    throw new IllegalStateException("broken core");
                }
                return List.of(rejected);
            }
        }, () -> List.of(new Produced(Topics.QUEUE_STATE, "job/uid-1", new byte[] {1})));

        assertThat(processor.batchEnded()).extracting(Produced::topic, Produced::key)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Topics.ADMISSIONS, "uid-1"), org.assertj.core.groups.Tuple.tuple(Topics.QUEUE_STATE, "job/uid-1"));
        failing.set(true);
        assertThat(processor.batchEnded()).isEmpty();
        assertThat(new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, event -> List.of()).batchEnded()).as("a core that decides per event").isEmpty();
    }

    @Test
    void anUnreadableRecordBecomesADeadLetterWithTheReasonAndThePayload() throws Exception {
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, event -> List.of());

        List<Produced> produced = processor.process(consumed("{oops".getBytes(StandardCharsets.UTF_8)));

        assertThat(produced).singleElement().satisfies(record -> {
            assertThat(record.topic()).isEqualTo(Topics.DEAD_LETTER);
            DeadLetter letter = deadLetter(record);
            assertThat(letter.reason()).startsWith("not JSON: ");
            assertThat(letter.payload()).isEqualTo("{oops");
            assertThat(letter.topic()).isEqualTo(Topics.SUBMISSIONS);
            assertThat(letter.partition()).isEqualTo(2);
            assertThat(letter.offset()).isEqualTo(41);
            assertThat(letter.service()).isEqualTo("test-service");
            assertThat(letter.time()).isEqualTo(CLOCK.instant());
        });
    }

    @Test
    void anUnreadableSubmissionOfAKnownJobIsDeadLetteredAndTheJobIsRejectedWithTheReason() throws Exception {
        String payload = "{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.submitted\",\"id\":\"1\",\"source\":\"/p\","
                + "\"subject\":\"default/j\",\"jobuid\":\"uid-1\",\"time\":\"2026-11-29T17:00:00Z\",\"data\":42}";
        EventProcessor processor = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, event -> List.of())
                .rejectingUnreadableJobs("/muster/queue-service");

        List<Produced> produced = processor.process(consumed(payload.getBytes(StandardCharsets.UTF_8)));

        assertThat(produced).extracting(Produced::topic).containsExactly(Topics.DEAD_LETTER, Topics.ADMISSIONS);
        JobEvent rejected = (JobEvent) EventSerde.deserialize(produced.get(1).value());
        assertThat(rejected.job()).isEqualTo(JOB);
        assertThat(rejected.source()).isEqualTo("/muster/queue-service");
        assertThat(((JobRejected) rejected.data()).reasons()).containsExactly(deadLetter(produced.get(0)).reason());
        assertThat(deadLetter(produced.get(0)).reason()).startsWith("data of dev.muster.job.submitted must be a PyTorchJob manifest");
    }

    @Test
    void aCoreThatFailsOnAnEventDeadLettersItInsteadOfStoppingTheStream() throws Exception {
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null));
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, event -> {
            throw new IllegalStateException("boom");
        });

        List<Produced> produced = processor.process(consumed(EventSerde.serialize(deleted)));

        assertThat(deadLetter(produced.get(0)).reason())
                .isEqualTo("processing dev.muster.job.deleted failed: java.lang.IllegalStateException: boom");
    }

    @Test
    void aStatefulCoresStateChangesFollowItsDecisionsAndAreDroppedWhenItFails() throws Exception {
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null));
        List<Produced> pending = new java.util.ArrayList<>();
        EventProcessor.StateChanges drain = () -> {
            List<Produced> drained = List.copyOf(pending);
            pending.clear();
            return drained;
        };
        EventProcessor stateful = new EventProcessor("s", Topics.ADMISSIONS, CLOCK, event -> {
            pending.add(new Produced(Topics.QUEUE_STATE, "uid-1", null));
            return List.of(((JobEvent) event).followUp("/s", JOB, CLOCK.instant(), new JobRejected(List.of("r"))));
        }, drain);
        EventProcessor failing = new EventProcessor("s", Topics.ADMISSIONS, CLOCK, event -> {
            pending.add(new Produced(Topics.QUEUE_STATE, "uid-1", null));
            throw new IllegalStateException("boom");
        }, drain);

        assertThat(stateful.process(consumed(EventSerde.serialize(deleted)))).extracting(Produced::topic)
                .containsExactly(Topics.ADMISSIONS, Topics.QUEUE_STATE);
        assertThat(failing.process(consumed(EventSerde.serialize(deleted)))).extracting(Produced::topic)
                .containsExactly(Topics.DEAD_LETTER);
        assertThat(pending).isEmpty();
    }

    @Test
    void anEventTheCoreRejectsIsDeadLetteredWithTheCoresReasonAlone() throws Exception {
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null));
        EventProcessor processor = new EventProcessor("s", Topics.ADMISSIONS, CLOCK, event -> {
            throw new RejectedEventException("only one ElasticQuotaTree is supported");
        });

        assertThat(deadLetter(processor.process(consumed(EventSerde.serialize(deleted))).get(0)).reason())
                .isEqualTo("only one ElasticQuotaTree is supported");
    }

    @Test
    void aJobTheCoreRefusesIsDeadLetteredAndRejectedWithEveryReason() throws Exception {
        JobEvent submitted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null));
        EventProcessor processor = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, event -> {
            throw new RejectedEventException(JOB, List.of("first reason", "second reason"));
        }).rejectingUnreadableJobs("/muster/queue-service");

        List<Produced> produced = processor.process(consumed(EventSerde.serialize(submitted)));

        assertThat(deadLetter(produced.get(0)).reason()).isEqualTo("first reason; second reason");
        assertThat(((JobEvent) EventSerde.deserialize(produced.get(1).value())).data())
                .isEqualTo(new JobRejected(List.of("first reason", "second reason")));
    }

    @Test
    void anEventTheCoreIgnoresProducesNothing() {
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted(null));

        assertThat(new EventProcessor("s", Topics.ADMISSIONS, CLOCK, event -> List.of()).process(consumed(EventSerde.serialize(deleted)))).isEmpty();
    }

    @Test
    void aProcessorReadingOnlySomeTypesPassesOverTheOthersWithoutDecodingThem() {
        List<MusterEvent> handled = new java.util.ArrayList<>();
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, event -> {
            handled.add(event);
            return List.of();
        }).readingOnly(java.util.Set.of(EventType.DELETED));
        // A submission whose data no decoder would accept: passed over, not dead-lettered, as it is not this service's business.
        byte[] badSubmission = ("{\"specversion\":\"1.0\",\"id\":\"e1\",\"source\":\"/client\",\"type\":\"dev.muster.job.submitted\","
                + "\"subject\":\"default/j\",\"time\":\"2026-11-29T17:00:00Z\",\"jobuid\":\"uid-1\",\"data\":42}").getBytes(StandardCharsets.UTF_8);
        JobEvent deleted = JobEvent.create("/client", JOB, CLOCK.instant(), new JobDeleted("by owner"));

        assertThat(processor.process(consumed(badSubmission))).isEmpty();
        assertThat(processor.process(consumed(EventSerde.serialize(deleted)))).isEmpty();

        assertThat(handled).singleElement().isEqualTo(deleted);
    }

    @Test
    void aRecordWhoseTypeCannotBeReadIsStillDeadLetteredByAProcessorReadingOnlySomeTypes() throws Exception {
        EventProcessor processor = new EventProcessor("test-service", Topics.ADMISSIONS, CLOCK, event -> List.of())
                .readingOnly(java.util.Set.of(EventType.DELETED));

        List<Produced> produced = processor.process(consumed("{\"specversion\":\"1.0\",\"type\":\"dev.muster.job.nonsense\"}".getBytes(StandardCharsets.UTF_8)));

        assertThat(produced).singleElement().satisfies(record -> assertThat(deadLetter(record).reason()).contains("unknown event type"));
    }
}
