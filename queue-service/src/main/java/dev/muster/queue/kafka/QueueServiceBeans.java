package dev.muster.queue.kafka;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.muster.model.event.EventProcessor;
import dev.muster.model.event.Topics;
import dev.muster.queue.core.intake.SubmissionIntake;

/** Wires the plain-Java core into CDI. */
public class QueueServiceBeans {

    @Produces
    @Singleton
    EventProcessor submissionProcessor() {
        Clock clock = Clock.systemUTC();
        return new EventProcessor("queue-service", Topics.ADMISSIONS, clock, new SubmissionIntake(clock)::handle);
    }
}
