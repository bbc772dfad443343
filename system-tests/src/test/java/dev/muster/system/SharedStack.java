package dev.muster.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.muster.local.MusterService;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * One stack for the system tests whose faults leave the fleet as they found it (failover, reclaim): started by the
 * first of them, stopped when the test JVM ends. A stack takes half a minute to start; the suite's time is its budget.
 */
final class SharedStack {

    private static MusterStack stack;
    private static OtlpReceiver traces;

    private SharedStack() {
    }

    static synchronized MusterStack get() {
        if (stack == null) {
            try {
                traces = OtlpReceiver.start();
                // Every service exports its spans to the receiver, soon after they end: tests read one job's trace there.
                Map<String, String> tracing = Map.of("quarkus.otel.sdk.disabled", "false", "quarkus.otel.exporter.otlp.endpoint", traces.endpoint(),
                        "quarkus.otel.bsp.schedule.delay", "200ms");
                // Status sync's producers give an event or an inventory report up after 10 s rather than 1-2 min (waiting for the
                // topic's leader, then for the broker's answer): a broker outage past it fits in a test.
                Map<String, String> statusSync = new java.util.HashMap<>(tracing);
                for (String channel : java.util.List.of("member-status", "inventory")) {
                    statusSync.put("mp.messaging.outgoing." + channel + ".max.block.ms", "10000");
                    statusSync.put("mp.messaging.outgoing." + channel + ".delivery.timeout.ms", "10000");
                    statusSync.put("mp.messaging.outgoing." + channel + ".request.timeout.ms", "5000");
                }
                stack = MusterStack.start(Path.of("..", "deploy", "local", "fleet.yaml"), Map.of(MusterService.QUEUE, tracing,
                        MusterService.PLACEMENT, tracing, MusterService.STATUS_SYNC, statusSync));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stack.close();
                traces.close();
            }, "muster-stack-stop"));
        }
        return stack;
    }

    /**
     * What a test class on the shared stack does when it ends: deletes its jobs (and waits until the queue holds them no
     * more, so the next class finds the quota free) and closes its fleet client; either may be null if it never started.
     */
    static void leave(MusterStack stack, KubernetesClient fleet, String namespace, List<String> jobs) throws IOException {
        if (stack != null) {
            stack.deleteJobs(namespace, jobs);
        }
        if (fleet != null) {
            fleet.close();
        }
    }

    /** What the shared stack's services exported over OTLP so far. */
    static synchronized OtlpReceiver traces() {
        get();
        return traces;
    }
}
