package dev.muster.model.resource;

/** Thrown when a Kubernetes quantity string cannot be parsed; the message is fit to show to the user. */
public final class InvalidQuantityException extends IllegalArgumentException {

    private final String text;

    public InvalidQuantityException(String text) {
        super("cannot parse quantity \"" + text + "\"");
        this.text = text;
    }

    /** A quantity that can be read but is out of range, e.g. above 2^63-1. */
    public InvalidQuantityException(String text, String reason) {
        super("quantity \"" + text + "\" " + reason);
        this.text = text;
    }

    /** The text that was given as a quantity. */
    public String text() {
        return text;
    }
}
