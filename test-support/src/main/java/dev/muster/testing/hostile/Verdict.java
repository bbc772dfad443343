package dev.muster.testing.hostile;

import java.util.Optional;

/**
 * What one hostile case came to, on either front door: handled, counted by {@code kind} (how it was refused, or that it
 * was valid after all), or mishandled, with the {@code problem}.
 */
public record Verdict(String kind, Optional<String> problem) {

    public static Verdict handled(String kind) {
        return new Verdict(kind, Optional.empty());
    }

    public static Verdict mishandled(String problem) {
        return new Verdict("mishandled", Optional.of(problem));
    }
}
