package dev.muster.runtime.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobDeleted;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobRef;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.EventProcessor.Consumed;
import dev.muster.runtime.EventProcessor.Produced;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;

/** Each job's records and decisions are one trace, whatever other job's event caused a decision; with tracing off nothing is added. */
class JobTracesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-04T04:00:00Z"), ZoneOffset.UTC);
    private static final JobRef FIRST = new JobRef("team-a", "first", "uid-first");
    private static final JobRef SECOND = new JobRef("team-a", "second", "uid-second");
    /** A producer's own trace, as an instrumented Kafka producer writes it. */
    private static final String PRODUCERS_CONTEXT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();

    @AfterEach
    void close() {
        sdk.close();
    }

    private static Consumed record(JobEvent event, String traceparent) {
        org.apache.kafka.common.header.internals.RecordHeaders headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        if (traceparent != null) {
            headers.add(JobTraces.HEADER, traceparent.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return new Consumed(Topics.SUBMISSIONS, 0, 7, event.job().uid(), EventSerde.serialize(event), headers);
    }

    private static String traceId(String traceparent) {
        return traceparent.substring(3, 35);
    }

    /** A core that answers a job's deletion with a decision about it, and the first job's deletion also with one about the second. */
    private static List<MusterEvent> decide(MusterEvent event) {
        JobEvent consumed = (JobEvent) event;
        List<MusterEvent> decisions = new ArrayList<>();
        decisions.add(consumed.followUp("/test", consumed.job(), CLOCK.instant(), new JobRejected(List.of("gone"))));
        if (consumed.job().equals(FIRST)) {
            decisions.add(consumed.followUp("/test", SECOND, CLOCK.instant(), new JobWithdrawn("capacity freed")));
        }
        return decisions;
    }

    @Test
    void aJobsDecisionsContinueItsTraceAndADecisionAnotherJobCausedContinuesTheDecidedJobsTraceLinkedToItsCause() {
        EventProcessor processor = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, JobTracesTest::decide)
                .tracing(new JobTraces(sdk, "queue-service"));

        List<Produced> second = processor.process(record(JobEvent.create("/client", SECOND, CLOCK.instant(), new JobDeleted("x")), null));
        List<Produced> first = processor.process(record(JobEvent.create("/client", FIRST, CLOCK.instant(), new JobDeleted("x")), PRODUCERS_CONTEXT));

        String secondsTrace = traceId(second.get(0).traceparent());
        assertThat(first).extracting(Produced::traceparent).doesNotContainNull();
        assertThat(traceId(first.get(0).traceparent())).as("the first job's decision, in the producer's trace").isEqualTo(traceId(PRODUCERS_CONTEXT));
        assertThat(traceId(first.get(1).traceparent())).as("the second job's decision, caused by the first's event, in the second's trace")
                .isEqualTo(secondsTrace);

        List<SpanData> spans = exporter.getFinishedSpanItems();
        SpanData handlingFirst = spans.stream().filter(span -> span.getTraceId().equals(traceId(PRODUCERS_CONTEXT))).findFirst().orElseThrow();
        assertThat(handlingFirst.getName()).isEqualTo("queue-service dev.muster.job.deleted");
        assertThat(handlingFirst.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(handlingFirst.getParentSpanId()).isEqualTo(PRODUCERS_CONTEXT.substring(36, 52));
        SpanData decidedSecond = spans.stream().filter(span -> span.getTraceId().equals(secondsTrace) && span.getKind() == SpanKind.PRODUCER)
                .findFirst().orElseThrow();
        assertThat(decidedSecond.getLinks()).singleElement().satisfies(link ->
                assertThat(link.getSpanContext().getSpanId()).isEqualTo(handlingFirst.getSpanId()));
    }

    @Test
    void aSpanOfWorkOutsideKafkaContinuesTheJobsTraceAsLastSeen() {
        JobTraces traces = new JobTraces(sdk, "status-sync-service");
        traces.seen(FIRST.uid(), PRODUCERS_CONTEXT);

        var write = traces.startJobSpan("fleet status Running", FIRST.uid(), SpanKind.CLIENT);
        write.end();

        assertThat(exporter.getFinishedSpanItems()).singleElement().satisfies(span -> {
            assertThat(span.getTraceId()).isEqualTo(traceId(PRODUCERS_CONTEXT));
            assertThat(span.getName()).isEqualTo("status-sync-service fleet status Running");
        });
    }

    @Test
    void withTracingOffNoContextIsAddedAndAProducersPassesThrough() {
        EventProcessor processor = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, JobTracesTest::decide)
                .tracing(JobTraces.off("queue-service"));

        List<Produced> untraced = processor.process(record(JobEvent.create("/client", SECOND, CLOCK.instant(), new JobDeleted("x")), null));
        List<Produced> traced = processor.process(record(JobEvent.create("/client", FIRST, CLOCK.instant(), new JobDeleted("x")), PRODUCERS_CONTEXT));

        assertThat(untraced).extracting(Produced::traceparent).containsOnlyNulls();
        assertThat(traced.get(0).traceparent()).isEqualTo(PRODUCERS_CONTEXT);
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void aMalformedContextIsNoContext() {
        EventProcessor processor = new EventProcessor("queue-service", Topics.ADMISSIONS, CLOCK, JobTracesTest::decide)
                .tracing(new JobTraces(sdk, "queue-service"));

        List<Produced> produced = processor.process(record(JobEvent.create("/client", SECOND, CLOCK.instant(), new JobDeleted("x")),
                "00-not-a-trace\u0000"));

        assertThat(produced).singleElement().satisfies(record -> assertThat(record.traceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01"));
    }
}
