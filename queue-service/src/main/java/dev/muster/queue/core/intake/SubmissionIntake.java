package dev.muster.queue.core.intake;

import java.time.Clock;
import java.util.List;

import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.JobQueued;
import dev.muster.model.event.JobRejected;
import dev.muster.model.event.JobSubmitted;
import dev.muster.model.job.JobDemand;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobValidator;
import dev.muster.model.validation.Violation;

/**
 * The queue service's first decision on a submitted job: reject it with every reason when it is invalid,
 * otherwise compute its demand and hold it in the queue.
 * <p>
 * With no quota tree known, no namespace is bound to a quota leaf, so a valid job is held with
 * {@code NoQuotaForNamespace}, as the spec requires; it is never run without quota.
 */
public final class SubmissionIntake {

    public static final String SOURCE = "/muster/queue-service";
    public static final String NO_QUOTA_FOR_NAMESPACE = "NoQuotaForNamespace";

    private final Clock clock;

    public SubmissionIntake(Clock clock) {
        this.clock = clock;
    }

    /** The events a consumed event leads to; events other than submissions lead to none yet. */
    public List<JobEvent> handle(MusterEvent consumed) {
        if (!(consumed instanceof JobEvent event) || !(event.data() instanceof JobSubmitted submitted)) {
            return List.of();
        }
        PyTorchJob job = submitted.job();
        if (job == null) {
            return List.of(event.followUp(SOURCE, event.job(), clock.instant(), new JobRejected(List.of("data.job: is required"))));
        }
        List<Violation> violations = PyTorchJobValidator.validate(job);
        if (!violations.isEmpty()) {
            List<String> reasons = violations.stream().map(Violation::toString).toList();
            return List.of(event.followUp(SOURCE, event.job(), clock.instant(), new JobRejected(reasons)));
        }
        String namespace = event.job().namespace();
        JobQueued queued = new JobQueued(null, NO_QUOTA_FOR_NAMESPACE,
                "namespace \"" + namespace + "\" is bound to no quota leaf of the ElasticQuotaTree",
                null, JobDemand.of(job).total());
        return List.of(event.followUp(SOURCE, event.job(), clock.instant(), queued));
    }
}
