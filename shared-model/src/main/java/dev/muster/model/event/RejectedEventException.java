package dev.muster.model.event;

import java.util.List;
import java.util.Optional;

/**
 * Thrown by a service's core for a well-formed event it cannot accept (an invalid job or policy, a second
 * quota tree): the event goes to the dead-letter topic with the reasons, processing goes on, and when the
 * event is a job's, the job is rejected with the same reasons.
 */
public final class RejectedEventException extends RuntimeException {

    private final transient JobRef job;
    private final List<String> reasons;

    public RejectedEventException(String reason) {
        this(null, List.of(reason));
    }

    /** @param job the job to tell, or null */
    public RejectedEventException(JobRef job, List<String> reasons) {
        super(String.join("; ", reasons));
        this.job = job;
        this.reasons = List.copyOf(reasons);
    }

    public Optional<JobRef> job() {
        return Optional.ofNullable(job);
    }

    public List<String> reasons() {
        return reasons;
    }
}
