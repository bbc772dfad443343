package dev.muster.model.json;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The one JSON and YAML configuration of Muster: events, manifests and API objects are all read and
 * written through these mappers, so a field looks the same on a topic, in a file and on the API server.
 * Unknown properties are not an error: API types keep them, event envelopes ignore extensions they do not use.
 */
public final class MusterJson {

    private static final ObjectMapper JSON = configure(JsonMapper.builder().build());
    private static final ObjectMapper YAML = configure(new YAMLMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
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

    private static ObjectMapper configure(ObjectMapper mapper) {
        // Absent and null mean the same on every Muster topic; null properties are left out (map entries are kept).
        mapper.setDefaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.ALWAYS));
        return mapper.registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);
    }
}
