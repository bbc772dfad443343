package dev.muster.model.time;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Kubernetes objects write them: Go style ({@code 500ms}, {@code 90s}, {@code 1h30m}) or ISO-8601 ({@code PT90S}). */
public final class GoDurations {

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    private GoDurations() {
    }

    /** The duration the text spells, or empty when it is not one. */
    public static Optional<Duration> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String trimmed = text.trim();
        if (trimmed.startsWith("P")) {
            try {
                return Optional.of(Duration.parse(trimmed));
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        }
        Matcher part = PART.matcher(trimmed);
        Duration total = Duration.ZERO;
        int end = 0;
        try {
            while (part.find() && part.start() == end) {
                long amount = Long.parseLong(part.group(1));
                total = total.plus(switch (part.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    default -> Duration.ofHours(amount);
                });
                end = part.end();
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // More than a long or a Duration holds: no duration anyone means.
            return Optional.empty();
        }
        return end == trimmed.length() && end > 0 ? Optional.of(total) : Optional.empty();
    }

    /** Go's spelling of a duration, e.g. {@code 1h30m}, {@code 45s}, {@code 250ms}. */
    public static String format(Duration duration) {
        if (duration.isZero()) {
            return "0s";
        }
        StringBuilder text = new StringBuilder();
        long hours = duration.toHours();
        int minutes = duration.toMinutesPart();
        int seconds = duration.toSecondsPart();
        int millis = duration.toMillisPart();
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (minutes > 0) {
            text.append(minutes).append('m');
        }
        if (seconds > 0) {
            text.append(seconds).append('s');
        }
        if (millis > 0) {
            text.append(millis).append("ms");
        }
        return text.toString();
    }
}
