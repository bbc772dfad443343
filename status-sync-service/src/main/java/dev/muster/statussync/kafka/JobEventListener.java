package dev.muster.statussync.kafka;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.MalformedEventException;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.Record;

/**
 * Consumes what the fleet must show: submissions and deletions ({@link Topics#SUBMISSIONS}), queue decisions
 * ({@link Topics#ADMISSIONS}), placement decisions ({@link Topics#PLACEMENTS}), status sync's own decisions
 * ({@link Topics#MEMBER_STATUS}) and the quota tree ({@link Topics#FLEET_CONFIG}). Each record is acknowledged
 * after its fleet writes, so a crash repeats it; the writes find their earlier selves and change nothing.
 */
@ApplicationScoped
public class JobEventListener {

    static final String JOB_EVENTS = "job-events";
    private static final Logger LOG = Logger.getLogger(JobEventListener.class);

    private final MirrorEngine engine;

    JobEventListener(MirrorEngine engine) {
        this.engine = engine;
    }

    @Incoming(JOB_EVENTS)
    @Blocking
    public void consume(Record<String, byte[]> record) throws InterruptedException {
        if (record.value() == null) {
            return;
        }
        MusterEvent event;
        try {
            event = EventSerde.deserialize(record.value());
        } catch (MalformedEventException e) {
            // Written by Muster's own services, which validate what they write; nothing here can repair it.
            LOG.warnf("skipping an unreadable record (key %s): %s", record.key(), e.getMessage());
            return;
        }
        engine.consume(event);
    }
}
