package dev.muster.simulator.cluster;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.time.HumanDuration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * Custom resources rendered as the {@code meta.k8s.io/v1} Table a real API server returns when a client asks
 * for one ({@code Accept: ...;as=Table}): a Name column, then the definition's printer columns (or Age when it
 * has none), dates as ages. This is where {@code kubectl get pytorchjob} finds its STATE column.
 */
final class ResourceTables {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final List<CustomResourceDefinition> definitions;

    ResourceTables(List<CustomResourceDefinition> definitions) {
        this.definitions = List.copyOf(definitions);
    }

    /**
     * The definition of the custom resource a read path names ({@code /apis/<group>/<version>[/namespaces/<ns>]/<plural>[/<name>]}),
     * or empty for any other path, subresources included.
     */
    Optional<CustomResourceDefinition> definitionFor(String path) {
        String[] segments = path.split("/");
        // "", "apis", group, version, then [namespaces, ns,] plural [, name]
        if (segments.length < 5 || !segments[1].equals("apis")) {
            return Optional.empty();
        }
        int at = 4;
        if (segments[at].equals("namespaces") && segments.length > at + 2) {
            at += 2;
        }
        if (segments.length > at + 2) {
            return Optional.empty();
        }
        String group = segments[2];
        String version = segments[3];
        String plural = segments[at];
        return definitions.stream().filter(definition -> definition.getSpec().getGroup().equals(group)
                && definition.getSpec().getNames().getPlural().equals(plural)
                && definition.getSpec().getVersions().stream().anyMatch(served -> served.getName().equals(version))).findFirst();
    }

    /** Whether the path lists events ({@code /api/v1/events} or a namespace's), which kubectl shows as a table of its own. */
    static boolean isEventList(String path) {
        return path.equals("/api/v1/events") || path.matches("/api/v1/namespaces/[^/]+/events");
    }

    /** Events as {@code kubectl get events} shows them: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE. */
    ObjectNode events(JsonNode list, Instant now) {
        ObjectNode table = JSON.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        table.putObject("metadata");
        ArrayNode definitions = table.putArray("columnDefinitions");
        for (String[] column : new String[][] {{"Last Seen", "string"}, {"Type", "string"}, {"Reason", "string"}, {"Object", "string"},
                {"Message", "string"}}) {
            definitions.addObject().put("name", column[0]).put("type", column[1]).put("format", "").put("priority", 0).put("description", "");
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> items = new ArrayList<>();
        list.path("items").forEach(items::add);
        // Oldest first, as kubectl users read events.
        items.sort(java.util.Comparator.comparing(event -> lastSeen(event)));
        for (JsonNode event : items) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            String seen = lastSeen(event);
            cells.add(seen.isEmpty() ? "<unknown>" : HumanDuration.of(Duration.between(Instant.parse(seen), now)));
            cells.add(event.path("type").asText());
            cells.add(event.path("reason").asText());
            JsonNode involved = event.path("involvedObject");
            cells.add(involved.path("kind").asText().toLowerCase(java.util.Locale.ROOT) + "/" + involved.path("name").asText());
            cells.add(event.path("message").asText());
            ObjectNode partial = row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1");
            partial.set("metadata", event.path("metadata").deepCopy());
        }
        return table;
    }

    private static String lastSeen(JsonNode event) {
        for (String field : List.of("lastTimestamp", "eventTime", "firstTimestamp")) {
            if (event.hasNonNull(field) && !event.get(field).asText().isEmpty()) {
                return event.get(field).asText();
            }
        }
        return event.path("metadata").path("creationTimestamp").asText("");
    }

    /** The table of one object or of a list's items, as of {@code now}. */
    ObjectNode table(CustomResourceDefinition definition, JsonNode body, Instant now) {
        List<CustomResourceColumnDefinition> columns = columns(definition);
        ObjectNode table = JSON.objectNode().put("kind", "Table").put("apiVersion", "meta.k8s.io/v1");
        ObjectNode metadata = table.putObject("metadata");
        if (body.path("metadata").has("resourceVersion")) {
            metadata.put("resourceVersion", body.path("metadata").path("resourceVersion").asText());
        }
        ArrayNode definitions = table.putArray("columnDefinitions");
        definitions.addObject().put("name", "Name").put("type", "string").put("format", "name").put("priority", 0)
                .put("description", "Name must be unique within a namespace.");
        for (CustomResourceColumnDefinition column : columns) {
            definitions.addObject().put("name", column.getName()).put("type", column.getType())
                    .put("format", column.getFormat() == null ? "" : column.getFormat())
                    .put("priority", column.getPriority() == null ? 0 : column.getPriority())
                    .put("description", column.getDescription() == null ? "" : column.getDescription());
        }
        ArrayNode rows = table.putArray("rows");
        List<JsonNode> objects = new ArrayList<>();
        if (body.has("items")) {
            body.get("items").forEach(objects::add);
        } else {
            objects.add(body);
        }
        for (JsonNode object : objects) {
            ObjectNode row = rows.addObject();
            ArrayNode cells = row.putArray("cells");
            cells.add(object.path("metadata").path("name").asText());
            for (CustomResourceColumnDefinition column : columns) {
                cells.add(cell(column, at(object, column.getJsonPath()), now));
            }
            ObjectNode partial = row.putObject("object").put("kind", "PartialObjectMetadata").put("apiVersion", "meta.k8s.io/v1");
            partial.set("metadata", object.path("metadata").deepCopy());
        }
        return table;
    }

    private static List<CustomResourceColumnDefinition> columns(CustomResourceDefinition definition) {
        List<CustomResourceColumnDefinition> columns = definition.getSpec().getVersions().get(0).getAdditionalPrinterColumns();
        if (columns == null || columns.isEmpty()) {
            CustomResourceColumnDefinition age = new CustomResourceColumnDefinition();
            age.setName("Age");
            age.setType("date");
            age.setJsonPath(".metadata.creationTimestamp");
            return List.of(age);
        }
        return columns;
    }

    private static JsonNode cell(CustomResourceColumnDefinition column, JsonNode value, Instant now) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return JSON.nullNode();
        }
        if ("date".equals(column.getType())) {
            try {
                return JSON.textNode(HumanDuration.of(Duration.between(Instant.parse(value.asText()), now)));
            } catch (DateTimeParseException e) {
                return JSON.textNode(value.asText());
            }
        }
        if ("integer".equals(column.getType()) || "number".equals(column.getType()) || "boolean".equals(column.getType())) {
            return value;
        }
        return JSON.textNode(value.isValueNode() ? value.asText() : value.toString());
    }

    /**
     * The value at a printer column's JSONPath, in the subset definitions use: fields ({@code .status.phase}),
     * an index ({@code [0]}) and the last element ({@code [-1:]} or {@code [-1]}).
     */
    static JsonNode at(JsonNode node, String path) {
        JsonNode current = node;
        for (String step : path.replaceFirst("^\\.", "").split("\\.")) {
            String field = step;
            String index = null;
            int bracket = step.indexOf('[');
            if (bracket >= 0) {
                field = step.substring(0, bracket);
                index = step.substring(bracket + 1, step.length() - 1).replace(":", "");
            }
            if (!field.isEmpty()) {
                current = current.path(field);
            }
            if (index != null) {
                if (!current.isArray() || current.isEmpty()) {
                    return null;
                }
                int position = Integer.parseInt(index);
                current = current.get(position < 0 ? current.size() + position : position);
                if (current == null) {
                    return null;
                }
            }
        }
        return current;
    }
}
