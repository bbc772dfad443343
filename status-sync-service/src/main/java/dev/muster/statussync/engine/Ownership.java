package dev.muster.statussync.engine;

import java.util.Map;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.muster.statussync.kubernetes.MemberWatches;

/**
 * Which status-sync instance is the active one. The instance that owns the job-event partitions (every one of them,
 * see {@code SingleOwnerAssignor}) watches the members, judges their copies and writes the fleet; the others stand
 * by with nothing watched, and the first to be given the partitions when the owner dies takes over, listing every
 * member afresh. Kafka's group membership is the lease: an instance that learns it lost its partitions stands by.
 */
@ApplicationScoped
public class Ownership {

    private static final Logger LOG = Logger.getLogger(Ownership.class);

    private final MirrorEngine engine;
    private final MemberWatches watches;
    private boolean active;

    Ownership(MirrorEngine engine, MemberWatches watches) {
        this.engine = engine;
        this.watches = watches;
    }

    /**
     * The group gave this instance the job-event partitions: it is the active one (again, after a rebalance: nothing changes).
     *
     * @param unconsumedStatus the group's position in each partition of the member-status topic, where its backlog starts:
     *                         asked on the polling thread, only when this instance was not the active one
     */
    public synchronized void owning(Supplier<Map<TopicPartition, Long>> unconsumedStatus) {
        if (active) {
            return;
        }
        active = true;
        engine.activate(unconsumedStatus.get());
        watches.watchMembers();
        LOG.info("active: this instance owns the job events; watching the members");
    }

    /** The group gave this instance nothing, or it lost its partitions: it stands by. */
    public synchronized void standingBy() {
        if (!active) {
            // Nothing is watched yet; readiness learns that this instance stands by.
            watches.stopWatchingMembers();
            LOG.info("standing by: another instance owns the job events");
            return;
        }
        active = false;
        watches.stopWatchingMembers();
        engine.deactivate();
        LOG.info("standing by: this instance no longer owns the job events; members no longer watched");
    }

    /** Whether this instance is the active one. */
    public synchronized boolean active() {
        return active;
    }
}
