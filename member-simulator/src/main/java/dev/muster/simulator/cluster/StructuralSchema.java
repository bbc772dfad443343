package dev.muster.simulator.cluster;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Checks an object against a CustomResourceDefinition's structural schema as a Kubernetes API server does, with its
 * wording ({@code spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"}).
 * <p>
 * A structural schema is a small part of OpenAPI v3 with Kubernetes' own extensions ({@code x-kubernetes-int-or-string},
 * {@code x-kubernetes-preserve-unknown-fields}); a JSON Schema validator knows neither, and would word its errors
 * otherwise than kubectl users read them. What is checked: {@code type}, {@code properties}, {@code items},
 * {@code additionalProperties}, {@code enum}, {@code required}, {@code nullable}, the two extensions.
 */
final class StructuralSchema {

    /** One field that is wrong, as Kubernetes reports it in a {@code Status}'s causes. */
    record Cause(String field, String message) {

        @Override
        public String toString() {
            return field + ": " + message;
        }
    }

    private final JsonNode schema;

    StructuralSchema(JsonNode schema) {
        this.schema = schema;
    }

    /** Every field of the object that the schema does not allow; {@code metadata}, {@code apiVersion} and {@code kind} are the API server's own. */
    List<Cause> validate(JsonNode object) {
        List<Cause> causes = new ArrayList<>();
        JsonNode properties = schema.path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!List.of("apiVersion", "kind", "metadata").contains(field.getKey()) && properties.has(field.getKey())) {
                check(field.getKey(), field.getValue(), properties.get(field.getKey()), causes);
            }
        }
        return causes;
    }

    private static void check(String path, JsonNode value, JsonNode schema, List<Cause> causes) {
        if (value.isNull()) {
            if (!schema.path("nullable").asBoolean(false)) {
                causes.add(new Cause(path, "Invalid value: \"null\": " + path + " in body must be of type " + schema.path("type").asText("object")
                        + ": \"null\""));
            }
            return;
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (!value.isIntegralNumber() && !value.isTextual()) {
                causes.add(new Cause(path, "Invalid value: \"" + typeOf(value) + "\": " + path + " in body must be of type integer,string: \""
                        + typeOf(value) + "\""));
            }
            return;
        }
        String type = schema.path("type").asText("");
        if (!type.isEmpty() && !matches(type, value)) {
            causes.add(new Cause(path, "Invalid value: \"" + typeOf(value) + "\": " + path + " in body must be of type " + type + ": \""
                    + typeOf(value) + "\""));
            return;
        }
        if (schema.has("enum") && !contains(schema.get("enum"), value)) {
            causes.add(new Cause(path, "Unsupported value: " + value + ": supported values: " + join(schema.get("enum"))));
        }
        if (value.isObject()) {
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    causes.add(new Cause(path + "." + required.asText(), "Required value"));
                }
            }
            JsonNode properties = schema.path("properties");
            JsonNode additional = schema.get("additionalProperties");
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (properties.has(field.getKey())) {
                    check(path + "." + field.getKey(), field.getValue(), properties.get(field.getKey()), causes);
                } else if (additional != null && additional.isObject()) {
                    check(path + "." + field.getKey(), field.getValue(), additional, causes);
                }
                // Anything else is a field the schema does not declare: kept where unknown fields are preserved, pruned otherwise.
            }
        } else if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(path + "[" + i + "]", value.get(i), schema.get("items"), causes);
            }
        }
    }

    private static boolean matches(String type, JsonNode value) {
        return switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> true;
        };
    }

    /** The JSON type of a value, in the words of Kubernetes' messages. */
    private static String typeOf(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isArray()) {
            return "array";
        }
        return value.isObject() ? "object" : "null";
    }

    private static boolean contains(JsonNode values, JsonNode value) {
        for (JsonNode allowed : values) {
            if (allowed.equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static String join(JsonNode values) {
        List<String> texts = new ArrayList<>();
        values.forEach(value -> texts.add(value.toString()));
        return String.join(", ", texts);
    }
}
