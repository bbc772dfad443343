package dev.muster.fleetclient.raw;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * The values a stream reader of an API server's answer takes, read strictly: Jackson's {@code getValueAsString} reads an
 * object or a number where a string belongs as absent and leaves the parser inside the object, so a malformed answer
 * would be misread silently rather than refused.
 */
public final class JsonValues {

    private JsonValues() {
    }

    /** The current value as a string: null for JSON null, an error naming the field for anything but a string. */
    public static String text(JsonParser parser, String field) throws IOException {
        return present(parser, JsonToken.VALUE_STRING, field, "a string") ? parser.getText() : null;
    }

    /** The current value as a whole number: null for JSON null, an error naming the field for anything else. */
    public static Long whole(JsonParser parser, String field) throws IOException {
        return present(parser, JsonToken.VALUE_NUMBER_INT, field, "a whole number") ? parser.getLongValue() : null;
    }

    /** False for JSON null, true for a value of the expected kind; an error naming the field for any other. */
    private static boolean present(JsonParser parser, JsonToken kind, String field, String what) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return false;
        }
        if (token != kind) {
            throw new IOException(field + " is not " + what + " but " + token);
        }
        return true;
    }

    /** Fails unless the current token is the one expected, naming what was expected. */
    public static void expect(JsonParser parser, JsonToken expected, String what) throws IOException {
        if (parser.currentToken() != expected) {
            throw new IOException(what + " is not " + describe(expected) + " but " + parser.currentToken());
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> token.toString();
        };
    }
}
