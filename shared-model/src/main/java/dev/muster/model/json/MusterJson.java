package dev.muster.model.json;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.muster.model.validation.Limits;

/**
 * The one JSON and YAML configuration of Muster: events, manifests and API objects are all read and
 * written through these mappers, so a field looks the same on a topic, in a file and on the API server.
 * Unknown properties are not an error: API types keep them, event envelopes ignore extensions they do not use.
 */
public final class MusterJson {

    /** No manifest or event nests deeper than {@link Limits#MAX_NESTING_DEPTH}: deeper input is refused as it is read. */
    private static final StreamReadConstraints READ_LIMITS = StreamReadConstraints.builder().maxNestingDepth(Limits.MAX_NESTING_DEPTH).build();
    // A field given twice is refused, as Kubernetes' own YAML and strict JSON readers do: a reader that took the first
    // and one that took the last (an authorizing peek and the decoding after it) would see two different objects.
    private static final ObjectMapper JSON = configure(JsonMapper.builder(JsonFactory.builder().streamReadConstraints(READ_LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build()).build());
    // Strings that read as numbers are quoted, so that what is written (kubectl muster get -o yaml) can be applied again.
    private static final ObjectMapper YAML = configure(new YAMLMapper(YAMLFactory.builder()
            .streamReadConstraints(READ_LIMITS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .build()));

    private MusterJson() {
    }

    /** The shared JSON mapper; configure nothing on it. */
    public static ObjectMapper json() {
        return JSON;
    }

    /** The shared YAML mapper (reads JSON too); configure nothing on it. */
    public static ObjectMapper yaml() {
        return YAML;
    }

    /** The value as JSON bytes. */
    public static byte[] toBytes(Object value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /**
     * Reads JSON bytes as the given type.
     *
     * @throws IllegalArgumentException saying why, when the bytes are not that type's JSON
     */
    public static <T> T fromBytes(byte[] json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot read " + type.getSimpleName() + " from JSON: " + firstLine(e.getMessage()), e);
        }
    }

    /** The first line of an exception message: parser messages go on with source excerpts a user does not need. */
    public static String firstLine(String message) {
        if (message == null) {
            return "unknown error";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * What is wrong where, for a value that does not match its type: {@code spec.pytorchReplicaSpecs.Worker.replicas:
     * expected an integer, got "two"}.
     */
    public static String describe(JsonMappingException e) {
        String path = e.getPath().stream()
                .map(reference -> reference.getFieldName() != null ? "." + reference.getFieldName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
        String problem;
        if (e instanceof InvalidFormatException invalid) {
            problem = "expected " + article(invalid.getTargetType()) + ", got " + quotedValue(invalid.getValue());
        } else if (e instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null) {
            problem = "expected " + article(mismatched.getTargetType());
        } else {
            problem = firstLine(e.getOriginalMessage());
        }
        return path.isEmpty() ? problem : path + ": " + problem;
    }

    private static String quotedValue(Object value) {
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }

    private static String article(Class<?> type) {
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type)) {
            return "an object";
        }
        return "a " + type.getSimpleName();
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        // Absent and null mean the same on every Muster topic; null properties are left out (map entries are kept).
        mapper.setDefaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS));
        return mapper.registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // replicas: 1.5 is an error, as in Kubernetes, not 1.
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);
    }
}
