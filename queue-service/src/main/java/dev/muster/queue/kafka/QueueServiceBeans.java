package dev.muster.queue.kafka;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;

/** Wires the plain-Java core into CDI. */
public class QueueServiceBeans {

    @Produces
    @Singleton
    EventProcessor inputProcessor(QueueStateStore store) {
        return new EventProcessor("queue-service", Topics.ADMISSIONS, Clock.systemUTC(), store::handle, store::drainState);
    }
}
