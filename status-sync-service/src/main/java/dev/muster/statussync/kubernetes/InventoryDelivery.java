package dev.muster.statussync.kubernetes;

import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;
import dev.muster.fleetclient.TriedAgain;
import dev.muster.model.event.MemberEvent;

/**
 * Gets the members' inventory reports onto the broker. Only changes are reported, so a report the producer gave up on (the
 * broker away past its delivery timeout) left placement's view of that object stale until it next changed, and for good
 * for an object gone (its pod's resources held in placement's eyes): it is sent again, after a doubling backoff, until the
 * broker has it, unless a later report of the same object was sent since, which says more. A member's reports share its
 * key, so the broker keeps their order.
 */
final class InventoryDelivery {

    private static final Logger LOG = Logger.getLogger(InventoryDelivery.class);

    private final TriedAgain<MemberEvent> sends;
    /** The last report of each object (by subject) not yet on the broker. */
    private final Map<String, MemberEvent> latest = new ConcurrentHashMap<>();

    /**
     * @param send     one try: done once the broker has the report, failed when the producer gave up on it
     * @param stopping whether the service stops: the next instance reports every member afresh
     */
    InventoryDelivery(Function<MemberEvent, CompletionStage<Void>> send, ScheduledExecutorService retries, RetryPolicy backoff, BooleanSupplier stopping) {
        this.sends = new TriedAgain<>(send, retries, backoff, stopping, (report, failure, wait) -> LOG.warnf(
                "%s: the broker did not take its report of %s (%s); sending it again in %d ms", report.key(), report.subject(),
                failure.getMessage(), wait.toMillis()));
    }

    /** Sends the report until the broker has it, or a later report of the same object is sent. */
    void send(MemberEvent report) {
        latest.put(report.subject(), report);
        sends.run(report, this::isLatest).thenRun(() -> latest.remove(report.subject(), report));
    }

    /** How many objects' last reports the broker does not have yet. */
    int pending() {
        return latest.size();
    }

    private boolean isLatest(MemberEvent report) {
        return report.equals(latest.get(report.subject()));
    }
}
