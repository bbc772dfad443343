package dev.muster.statussync.engine;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;
import dev.muster.fleetclient.TriedAgain;
import dev.muster.model.event.JobEvent;

/**
 * Gets status sync's events onto the broker. What status sync decides comes from watching the members, not from a record
 * it could read again, so an event the producer gave up on (the broker away past its delivery timeout) would be a
 * failover or an end no reader ever learns of: it is sent again, after a doubling backoff, until the broker has it or the
 * service stops. Its readers take a repeat as they take one sent again by the next instance after a crash.
 * <p>
 * It also tells, for each job, when every event sent of it so far is on the broker: what leaves the broker's reach (a
 * copy's purge on its member) waits for that, so that a copy is never gone before the failover that left it is told.
 */
final class EventDelivery {

    private static final Logger LOG = Logger.getLogger(EventDelivery.class);

    private final TriedAgain<JobEvent> sends;
    /** For each job with an event not yet on the broker: done once all of them are. */
    private final Map<String, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

    /**
     * @param send     one try: done once the broker has the event, failed when the producer gave up on it
     * @param stopping whether the service stops: an event then left unsent is the next instance's to decide again
     */
    EventDelivery(Function<JobEvent, CompletionStage<Void>> send, ScheduledExecutorService retries, RetryPolicy backoff, BooleanSupplier stopping) {
        this.sends = new TriedAgain<>(send, retries, backoff, stopping, (event, failure, wait) -> LOG.warnf(
                "job %s: the broker did not take its %s (%s); sending it again in %d ms", event.job(), event.type().cloudEventType(),
                failure.getMessage(), wait.toMillis()));
    }

    /** Sends the event until the broker has it; done then, never if the service stops first. */
    CompletableFuture<Void> send(JobEvent event) {
        CompletableFuture<Void> delivered = sends.run(event, always -> true);
        String job = event.job().uid();
        CompletableFuture<Void> all = pending.merge(job, delivered, (earlier, later) -> CompletableFuture.allOf(earlier, later));
        all.whenComplete((done, failure) -> pending.remove(job, all));
        return delivered;
    }

    /** Done once every event sent of the job until now is on the broker (at once when none is pending). */
    CompletableFuture<Void> delivered(String jobUid) {
        return pending.getOrDefault(jobUid, CompletableFuture.completedFuture(null));
    }
}
