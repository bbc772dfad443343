package dev.muster.model.event;

import java.time.Instant;

/**
 * Any event on a Muster topic: a job's lifecycle ({@link JobEvent}), a change of fleet configuration
 * ({@link ConfigEvent}), or an observation of a member cluster ({@link MemberEvent}).
 */
public sealed interface MusterEvent permits JobEvent, ConfigEvent, MemberEvent {

    String id();

    String source();

    Instant time();

    EventType type();

    /** The Kafka record key: a job's fleet UID, a configuration object's {@code Kind/namespace/name}, or a member cluster's name. */
    String key();

    /** The CloudEvents subject: {@code namespace/name} of the job or object. */
    String subject();

    /** One log line for an operator. */
    String describe();
}
