package dev.muster.model.resource;

/** Thrown when the quantity of a named resource cannot be parsed; says which resource and why. */
public final class InvalidResourceException extends IllegalArgumentException {

    private final String resource;
    private final String reason;

    public InvalidResourceException(String resource, String reason) {
        super(resource + ": " + reason);
        this.resource = resource;
        this.reason = reason;
    }

    /** The resource name whose quantity is invalid, e.g. {@code cpu}. */
    public String resource() {
        return resource;
    }

    /** Why, e.g. {@code cannot parse quantity "two"}. */
    public String reason() {
        return reason;
    }
}
