package dev.muster.runtime.logging;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jboss.logging.MDC;

import dev.muster.model.event.FailoverTriggered;
import dev.muster.model.event.JobAdmitted;
import dev.muster.model.event.JobBound;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.JobEvicted;
import dev.muster.model.event.JobFinished;
import dev.muster.model.event.JobGivenBack;
import dev.muster.model.event.JobPreempted;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobWithdrawn;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.PlacementAttempted;
import dev.muster.model.event.PlacementFailed;

/**
 * One log line per decision, for operators: the sentence a person reads, and the fields a log pipeline filters on (the
 * job, the event, the queue, the cluster, the reason, the trace) in the logging context, which JSON logs show as fields.
 */
public final class DecisionLog {

    /** The logging-context keys a decision's line carries, when they apply. */
    public static final String JOB = "job";
    public static final String EVENT = "event";
    public static final String QUEUE = "queue";
    public static final String CLUSTER = "cluster";
    public static final String REASON = "reason";
    public static final String TRACE_ID = "traceId";

    private DecisionLog() {
    }

    /** Logs the decision at INFO with its fields; {@code traceparent} is the W3C context it is produced with, or null. */
    public static void log(Logger log, MusterEvent decision, String traceparent) {
        if (!log.isLoggable(Level.INFO)) {
            return;
        }
        Map<String, String> fields = fields(decision, traceparent);
        fields.forEach(MDC::put);
        try {
            log.log(Level.INFO, decision.describe());
        } finally {
            fields.keySet().forEach(MDC::remove);
        }
    }

    /** The fields of a decision's line: those that apply to it, in a stable order. */
    public static Map<String, String> fields(MusterEvent decision, String traceparent) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(EVENT, decision.type().cloudEventType());
        if (decision instanceof JobEvent event) {
            fields.put(JOB, event.job().namespace() + "/" + event.job().name());
            Object data = event.data();
            if (data instanceof JobQueued queued) {
                put(fields, QUEUE, queued.queue());
                put(fields, REASON, queued.reason());
            } else if (data instanceof JobAdmitted admitted) {
                put(fields, QUEUE, admitted.queue());
            } else if (data instanceof JobBound bound) {
                put(fields, CLUSTER, bound.cluster());
            } else if (data instanceof PlacementAttempted attempted) {
                put(fields, CLUSTER, attempted.cluster());
            } else if (data instanceof PlacementFailed failed) {
                put(fields, REASON, failed.message());
            } else if (data instanceof JobPreempted preempted) {
                put(fields, REASON, "preempted for " + preempted.by());
            } else if (data instanceof JobEvicted evicted) {
                put(fields, CLUSTER, evicted.cluster());
                put(fields, REASON, evicted.message());
            } else if (data instanceof FailoverTriggered failover) {
                put(fields, CLUSTER, failover.fromCluster());
                put(fields, REASON, failover.reason());
            } else if (data instanceof JobFinished finished) {
                put(fields, CLUSTER, finished.cluster());
                put(fields, REASON, finished.outcome());
            } else if (data instanceof JobRejected rejected) {
                put(fields, REASON, String.join("; ", rejected.reasons()));
            } else if (data instanceof JobGivenBack givenBack) {
                put(fields, REASON, givenBack.reason());
            } else if (data instanceof JobWithdrawn withdrawn) {
                put(fields, REASON, withdrawn.message());
            }
        }
        // traceparent: version-traceid-spanid-flags
        if (traceparent != null && traceparent.length() >= 35) {
            fields.put(TRACE_ID, traceparent.substring(3, 35));
        }
        return fields;
    }

    private static void put(Map<String, String> fields, String key, String value) {
        if (value != null) {
            fields.put(key, value);
        }
    }
}
