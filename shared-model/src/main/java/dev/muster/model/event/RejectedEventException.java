package dev.muster.model.event;

/**
 * Thrown by a service's core for a well-formed event it cannot accept (an invalid policy, a second quota
 * tree); the event goes to the dead-letter topic with this message as the reason, and processing goes on.
 */
public final class RejectedEventException extends RuntimeException {

    public RejectedEventException(String reason) {
        super(reason);
    }
}
