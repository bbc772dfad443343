package dev.muster.model.event;

import java.util.Optional;

/** Thrown when a record on a topic is not an event Muster can read; the message is the dead-letter reason. */
public final class MalformedEventException extends Exception {

    private final transient JobRef job;
    private final transient ConfigRef config;

    public MalformedEventException(String message) {
        this((JobRef) null, message);
    }

    /** @param job the job the record's envelope names, when it can be read, so that the job can be told */
    public MalformedEventException(JobRef job, String message) {
        super(message);
        this.job = job;
        this.config = null;
    }

    /** @param config the configuration object the record's envelope names, so that its refusal can be shown on it */
    public MalformedEventException(ConfigRef config, String message) {
        super(message);
        this.job = null;
        this.config = config;
    }

    /** The job the unreadable record was about, when its envelope says. */
    public Optional<JobRef> job() {
        return Optional.ofNullable(job);
    }

    /** The configuration object the unreadable record was about, when its envelope says. */
    public Optional<ConfigRef> config() {
        return Optional.ofNullable(config);
    }
}
