package dev.muster.runtime.tracing;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.smallrye.reactive.messaging.kafka.OutgoingKafkaRecord;

/**
 * One trace per job across the Kafka hops: a record about a job carries its trace context in a W3C {@code traceparent}
 * header, as OpenTelemetry's Kafka instrumentation writes it, so a producer that traces its submission sees Muster's spans
 * in its own trace. A decision about a job that another job's event caused (an admission when another job ends, a bind on
 * a tick) continues the decided job's trace, as this service last saw it, with a link to its cause; a service that
 * restarted has not seen it yet and parents it on the cause. With OpenTelemetry's SDK disabled (the default) every span
 * is a no-op and an incoming context passes through unchanged.
 */
public final class JobTraces {

    /** The Kafka record header that carries a record's trace context. */
    public static final String HEADER = "traceparent";
    /** The span attribute that names the job a span is about, by its uid. */
    public static final AttributeKey<String> JOB_UID = AttributeKey.stringKey("muster.job.uid");
    private static final String TRACEPARENT = "traceparent";
    /** Jobs whose last span this service remembers: the newest, bounded so that a long run costs a fixed amount. */
    private static final int REMEMBERED_JOBS = 50_000;
    private static final TextMapGetter<String> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return java.util.List.of(TRACEPARENT);
        }

        @Override
        public String get(String carrier, String key) {
            return TRACEPARENT.equals(key) ? carrier : null;
        }
    };
    private static final TextMapSetter<String[]> SETTER = (carrier, key, value) -> {
        if (TRACEPARENT.equals(key) && carrier != null) {
            carrier[0] = value;
        }
    };

    private final Tracer tracer;
    private final String service;
    private final Map<String, SpanContext> lastSpanOfJob = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SpanContext> eldest) {
            return size() > REMEMBERED_JOBS;
        }
    });

    public JobTraces(OpenTelemetry openTelemetry, String service) {
        this.tracer = openTelemetry.getTracer("dev.muster." + service);
        this.service = service;
    }

    /** Traces nobody collects: what a core's tests and the simulator use. */
    public static JobTraces off(String service) {
        return new JobTraces(OpenTelemetry.noop(), service);
    }

    /**
     * The span of handling a record: a child of the record's context, else of the job's last span, else a new trace. A
     * record about no job that carries no context (a tick, an inventory report) gets no span: the decisions it leads to
     * continue their own jobs' traces.
     *
     * @param jobUid the job the record is about, or null
     */
    public Span startHandling(String what, String traceparent, String jobUid) {
        Context parent = parentOf(traceparent, jobUid);
        if (parent == null) {
            return Span.getInvalid();
        }
        var builder = tracer.spanBuilder(service + " " + what).setSpanKind(SpanKind.CONSUMER).setParent(parent);
        if (jobUid != null) {
            builder.setAttribute(JOB_UID, jobUid);
        }
        Span span = builder.startSpan();
        remember(jobUid, span);
        return span;
    }

    /**
     * The trace context a decision about a job is produced with: the handling span's, when the decision is about the job
     * handled; otherwise a span of the decision in the decided job's own trace, linked to the handling span.
     *
     * @param handledJobUid the job the handled record is about, or null
     * @return the header value, or null when nothing is traced
     */
    public String decided(String what, String jobUid, Span handling, String handledJobUid) {
        if (jobUid != null && jobUid.equals(handledJobUid)) {
            return traceparent(handling.getSpanContext());
        }
        SpanContext known = jobUid == null ? null : lastSpanOfJob.get(jobUid);
        Context parent = known != null ? Context.root().with(Span.wrap(known))
                : handling.getSpanContext().isValid() ? Context.root().with(handling) : Context.root();
        var builder = tracer.spanBuilder(service + " " + what).setSpanKind(SpanKind.PRODUCER).setParent(parent);
        if (jobUid != null) {
            builder.setAttribute(JOB_UID, jobUid);
        }
        if (known != null && handling.getSpanContext().isValid()) {
            builder.addLink(handling.getSpanContext());
        }
        Span span = builder.startSpan();
        span.end();
        remember(jobUid, span);
        return traceparent(span.getSpanContext());
    }

    /**
     * A span of work on a job outside Kafka (a fleet write, a member write, a submission read from the fleet API), in the
     * job's trace as this service last saw it, or a new trace; the caller ends it.
     */
    public Span startJobSpan(String what, String jobUid, SpanKind kind) {
        SpanContext known = jobUid == null ? null : lastSpanOfJob.get(jobUid);
        var builder = tracer.spanBuilder(service + " " + what).setSpanKind(kind)
                .setParent(known == null ? Context.root() : Context.root().with(Span.wrap(known)));
        if (jobUid != null) {
            builder.setAttribute(JOB_UID, jobUid);
        }
        Span span = builder.startSpan();
        remember(jobUid, span);
        return span;
    }

    /**
     * The context of a record about a job that this service sends outside a batch's decisions (a submission read from the
     * fleet API, a member's answer, a status change): a span of the sending in the job's trace.
     *
     * @return the header value, or null when nothing is traced
     */
    public String sending(String what, String jobUid) {
        Span span = startJobSpan(what, jobUid, SpanKind.PRODUCER);
        span.end();
        return traceparent(span.getSpanContext());
    }

    /** The record, carrying the context in its {@link #HEADER} when there is one. */
    public static <K, T> OutgoingKafkaRecord<K, T> carrying(OutgoingKafkaRecord<K, T> record, String traceparent) {
        return traceparent == null ? record : record.withHeader(HEADER, traceparent.getBytes(StandardCharsets.UTF_8));
    }

    /** The context a consumed record carries in its {@link #HEADER}, or null. */
    public static String carried(org.apache.kafka.common.header.Headers headers) {
        org.apache.kafka.common.header.Header header = headers == null ? null : headers.lastHeader(HEADER);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Remembers the job's context from a record this service read without handling it as a decision. */
    public void seen(String jobUid, String traceparent) {
        if (jobUid != null && traceparent != null) {
            SpanContext context = Span.fromContext(extract(traceparent)).getSpanContext();
            if (context.isValid()) {
                lastSpanOfJob.put(jobUid, context);
            }
        }
    }

    /** The job ended: its trace is not continued here any more. */
    public void forget(String jobUid) {
        if (jobUid != null) {
            lastSpanOfJob.remove(jobUid);
        }
    }

    /** The W3C header value of a span's context, or null for an invalid (untraced) one. */
    public static String traceparent(SpanContext context) {
        if (!context.isValid()) {
            return null;
        }
        String[] carrier = new String[1];
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(Span.wrap(context)), carrier, SETTER);
        return carrier[0];
    }

    private Context parentOf(String traceparent, String jobUid) {
        if (traceparent != null) {
            Context extracted = extract(traceparent);
            if (Span.fromContext(extracted).getSpanContext().isValid()) {
                return extracted;
            }
        }
        SpanContext known = jobUid == null ? null : lastSpanOfJob.get(jobUid);
        if (known != null) {
            return Context.root().with(Span.wrap(known));
        }
        return jobUid == null ? null : Context.root();
    }

    private static Context extract(String traceparent) {
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, GETTER);
    }

    private void remember(String jobUid, Span span) {
        if (jobUid != null && span.getSpanContext().isValid()) {
            lastSpanOfJob.put(jobUid, span.getSpanContext());
        }
    }
}
