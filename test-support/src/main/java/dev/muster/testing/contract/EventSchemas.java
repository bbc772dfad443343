package dev.muster.testing.contract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import dev.muster.model.json.MusterJson;

/** The schemas of Muster's events as {@code docs/asyncapi.yaml} gives them, one per CloudEvents type. */
public final class EventSchemas {

    private final JsonNode schemas;
    private final java.util.Map<String, JsonSchema> byType = new java.util.HashMap<>();

    private EventSchemas(JsonNode schemas) {
        this.schemas = schemas;
    }

    /** The schemas of the AsyncAPI document at this path. */
    public static EventSchemas read(Path asyncApi) throws IOException {
        return new EventSchemas(MusterJson.yaml().readTree(Files.readString(asyncApi)).path("components").path("schemas"));
    }

    /** Whether the document has a schema for events of this type. */
    public boolean knows(String type) {
        return schemas.has(type);
    }

    /** How many event types it has schemas for (the CloudEvents envelope's own not counted). */
    public int count() {
        return schemas.size() - 1;
    }

    /** What is wrong with an event by the schema of its type; empty when it is valid. */
    public Set<ValidationMessage> problems(JsonNode event) {
        return byType.computeIfAbsent(event.path("type").asText(), this::schema).validate(event);
    }

    private JsonSchema schema(String type) {
        ObjectNode ofType = MusterJson.json().createObjectNode().put("$ref", "#/$defs/" + type);
        ofType.set("$defs", schemas);
        try {
            String text = MusterJson.json().writeValueAsString(ofType).replace("#/components/schemas/", "#/$defs/");
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(MusterJson.json().readTree(text));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
