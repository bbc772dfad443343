package dev.muster.model.event;

import java.util.Objects;

/**
 * Which fleet job an event is about.
 *
 * @param uid the job's fleet UID: the Kafka key of all its events
 */
public record JobRef(String namespace, String name, String uid) {

    public JobRef {
        requireText(namespace, "namespace");
        requireText(name, "name");
        requireText(uid, "uid");
    }

    private static void requireText(String value, String what) {
        if (Objects.requireNonNull(value, "job " + what + " is required").isBlank()) {
            throw new IllegalArgumentException("job " + what + " must not be blank");
        }
    }

    /** The CloudEvents subject: {@code namespace/name}. */
    public String subject() {
        return namespace + "/" + name;
    }

    @Override
    public String toString() {
        return subject();
    }
}
