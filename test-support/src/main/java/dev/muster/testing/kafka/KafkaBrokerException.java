package dev.muster.testing.kafka;

/** Thrown when the broker cannot be started, reached or stopped; the message includes the end of its log. */
public final class KafkaBrokerException extends RuntimeException {

    public KafkaBrokerException(String message) {
        super(message);
    }

    public KafkaBrokerException(String message, Throwable cause) {
        super(message, cause);
    }
}
