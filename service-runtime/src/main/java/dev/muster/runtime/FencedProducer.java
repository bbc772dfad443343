package dev.muster.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.jboss.logging.Logger;

import io.quarkus.runtime.Quarkus;

/**
 * A transactional producer that was fenced can never be used again (Kafka's rule: close it), and SmallRye keeps the
 * one it has, so every later transaction of the service would fail and its inputs stop for good. That happens with no
 * other instance alive: a broker outage longer than {@code transaction.timeout.ms} with a transaction open, which the
 * broker then aborts, bumping the producer's epoch. The service exits instead; whatever supervises it (the pod's
 * restart, the local stack) starts a fresh instance, which restores from the committed state as after any crash.
 */
final class FencedProducer {

    private static final Logger LOG = Logger.getLogger(FencedProducer.class);
    /** EX_TEMPFAIL: a failure a restart cures. */
    static final int EXIT_CODE = 75;
    /** How long a graceful shutdown may take before the process is halted: nothing it would flush is needed. */
    private static final long HALT_AFTER_MILLIS = 20_000;
    private static final AtomicBoolean EXITING = new AtomicBoolean();

    private FencedProducer() {
    }

    /** Whether the failure, or one of its causes, says the producer is fenced for good. */
    static boolean isFenced(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ProducerFencedException || cause instanceof InvalidProducerEpochException) {
                return true;
            }
        }
        return false;
    }

    /** Exits the process, once, for a fresh instance to take over: the producer is fenced, or stalled beyond what an outage explains. */
    static void exit(Throwable failure) {
        if (!EXITING.compareAndSet(false, true)) {
            return;
        }
        LOG.errorf("the transactional producer cannot be used any more (%s); exiting with %d so that a fresh instance restores the"
                + " committed state and goes on", failure.toString(), EXIT_CODE);
        CompletableFuture.runAsync(() -> Runtime.getRuntime().halt(EXIT_CODE),
                CompletableFuture.delayedExecutor(HALT_AFTER_MILLIS, TimeUnit.MILLISECONDS));
        Quarkus.asyncExit(EXIT_CODE);
    }
}
