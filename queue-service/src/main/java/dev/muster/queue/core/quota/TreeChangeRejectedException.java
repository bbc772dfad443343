package dev.muster.queue.core.quota;

/** Thrown when a new quota tree would strand admitted jobs; the message says which leaf and which jobs. */
public final class TreeChangeRejectedException extends Exception {

    public TreeChangeRejectedException(String message) {
        super(message);
    }
}
