package dev.muster.queue.kafka;

import java.time.Clock;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.queue.config.QueueConfig;
import dev.muster.queue.submitters.SubmissionGate;
import dev.muster.queue.core.queueing.FleetQueue;
import dev.muster.runtime.EventProcessor;
import dev.muster.runtime.tracing.JobTraces;

/** Wires the plain-Java core into CDI. */
public class QueueServiceBeans {

    @Produces
    @Singleton
    EventProcessor inputProcessor(QueueStateStore store, JobTraces traces) {
        EventProcessor.Handler queue = new EventProcessor.Handler() {
            @Override
            public List<MusterEvent> handle(MusterEvent event) {
                return store.handle(event);
            }

            @Override
            public List<MusterEvent> batchEnded() {
                return store.batchEnded();
            }
        };
        return inputProcessor(queue, store::drainState, store::refuseUnreadable, Clock.systemUTC()).tracing(traces);
    }

    @Produces
    @Singleton
    SubmissionGate submissionGate(QueueConfig config) {
        return SubmissionGate.of(config.submitters().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().namespaces())), Clock.systemUTC());
    }

    /**
     * How the queue service reads its inputs, around whatever core handles them. The queue service is where
     * submissions enter: a job whose record cannot be read is told why. Configuration that cannot be read is refused
     * on the object, as an invalid one is; producers may only submit and delete, under the job's uid, and what else
     * they send to the submissions topic is reported, not passed over.
     */
    static EventProcessor inputProcessor(EventProcessor.Handler core, EventProcessor.StateChanges state, EventProcessor.ConfigRefusals refusals,
                                         Clock clock) {
        return new EventProcessor("queue-service", Topics.ADMISSIONS, clock, core, state)
                .rejectingUnreadableJobs(FleetQueue.SOURCE).refusingUnreadableConfig(refusals)
                .readingOnly(FleetQueue.READS).reportingContractBreaches(Topics.SUBMISSIONS);
    }
}
