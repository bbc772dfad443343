package dev.muster.model.event;

/** Thrown when a record on a topic is not a job event Muster can read; the message is the dead-letter reason. */
public final class MalformedEventException extends Exception {

    public MalformedEventException(String message) {
        super(message);
    }
}
