package dev.muster.model.validation;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown where an invalid API object must not go further; carries every violation found. */
public final class InvalidObjectException extends IllegalArgumentException {

    private final List<Violation> violations;

    public InvalidObjectException(String subject, List<Violation> violations) {
        super(subject + " is invalid: " + violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        this.violations = List.copyOf(violations);
    }

    public List<Violation> violations() {
        return violations;
    }
}
