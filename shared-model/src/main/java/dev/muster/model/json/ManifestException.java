package dev.muster.model.json;

/** Thrown when a manifest cannot be read as one of Muster's API objects; the message says why, for the user. */
public final class ManifestException extends IllegalArgumentException {

    public ManifestException(String message) {
        super(message);
    }
}
