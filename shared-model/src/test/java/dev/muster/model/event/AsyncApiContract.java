package dev.muster.model.event;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;

import dev.muster.model.json.MusterJson;

/**
 * Muster's Kafka topics as an AsyncAPI 3 document, derived from the code that reads and writes them: each topic's channel
 * with who writes and who reads it, the messages {@link TopicContract} lets it carry, each one's key and headers, and the
 * JSON Schema of each event type's CloudEvents envelope and {@code data}, generated from the record the services read it
 * into. Kubernetes objects inside events (a PyTorchJob manifest, a node, a pod) are described as objects: their schemas
 * are the API server's and the CRDs'.
 */
final class AsyncApiContract {

    /** Who writes and who reads each topic: the one place the document says so. */
    private record Channel(String name, String topic, String description, List<String> writers, List<String> readers, String key) {
    }

    private static final String JOB_KEY = "the job's fleet UID, the event's jobuid: one job's events stay in order";

    private static final List<Channel> CHANNELS = List.of(
            new Channel("submissions", Topics.SUBMISSIONS, "Jobs submitted and deleted: the Kafka path's front door.",
                    List.of("producers (a team's CI, kubectl muster submit)", "queue-service (the fleet API's jobs; a submitter's inbox passed on)"),
                    List.of("queue-service", "placement-service (deletions)", "status-sync-service (deletions)"), JOB_KEY),
            new Channel("inboxes", Topics.INBOX_PREFIX + "{principal}", "On a secured cluster, each submitter's own inbox: the queue passes on"
                    + " what it submits and deletes in the namespaces it may use.", List.of("the submitter whose Kafka principal names it"),
                    List.of("queue-service"), JOB_KEY),
            new Channel("fleetConfig", Topics.FLEET_CONFIG, "PropagationPolicies, the ElasticQuotaTree and PriorityClasses as applied; one"
                    + " partition, compacted.", List.of("producers", "queue-service (the fleet API's objects, its own ticks)"), List.of("queue-service"),
                    "Kind/namespace/name of the object (queue ticks: their own key)"),
            new Channel("admissions", Topics.ADMISSIONS, "The queue's decisions: jobs queued, admitted, rejected, preempted, withdrawn; configuration"
                    + " accepted or refused.", List.of("queue-service"), List.of("placement-service", "status-sync-service"), JOB_KEY
                    + "; configuration outcomes: Kind/namespace/name"),
            new Channel("placements", Topics.PLACEMENTS, "Placement's decisions: attempts, failures, bindings, jobs given back, stops.",
                    List.of("placement-service"), List.of("queue-service", "status-sync-service"), JOB_KEY),
            new Channel("memberStatus", Topics.MEMBER_STATUS, "What the members say of each job: status changes, failovers, ends; and that a Kafka submission's fleet object is written.",
                    List.of("status-sync-service"), List.of("queue-service", "placement-service", "status-sync-service"), JOB_KEY),
            new Channel("inventory", Topics.INVENTORY, "Each member's nodes, pods and reservations, as status sync watches them.",
                    List.of("status-sync-service"), List.of("placement-service"), "the member cluster's name"),
            new Channel("placementResults", Topics.PLACEMENT_RESULTS, "What members answered to placement's writes, and its ticks: inputs"
                    + " placement sends itself.", List.of("placement-service"), List.of("placement-service"), JOB_KEY + "; ticks: their own key"));

    /** YAML with each description on one line, as a reader of the file wants it. */
    private static final com.fasterxml.jackson.databind.ObjectMapper YAML = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper(
            com.fasterxml.jackson.dataformat.yaml.YAMLFactory.builder().disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.SPLIT_LINES)
                    .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .enable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).build());

    private AsyncApiContract() {
    }

    /** The document, as YAML. */
    static String yaml() {
        try {
            return YAML.writeValueAsString(document());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> document() {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("asyncapi", "3.0.0");
        document.put("info", map("title", "Muster events", "version", Integer.toString(EventSerde.SCHEMA_VERSION),
                "description", "The events Muster's services exchange on Kafka. Every event is a CloudEvent 1.0. Muster writes structured"
                        + " mode (the whole event, data included, as the record's JSON value; application/cloudevents+json); producers may"
                        + " also send binary mode (the attributes as ce_* headers, the data as the value), as the CloudEvents Java SDK's"
                        + " Kafka serializer does by default. Generated from the code (AsyncApiContractTest); do not edit by hand."));
        document.put("defaultContentType", "application/cloudevents+json");
        Map<String, Object> channels = new LinkedHashMap<>();
        Map<String, Object> operations = new LinkedHashMap<>();
        Set<EventType> used = new TreeSet<>();
        for (Channel channel : CHANNELS) {
            Map<String, Object> messages = new LinkedHashMap<>();
            for (EventType type : TopicContract.typesOf(channel.topic().contains("{") ? Topics.SUBMISSIONS : channel.topic())) {
                messages.put(type.cloudEventType(), map("$ref", "#/components/messages/" + type.cloudEventType()));
                used.add(type);
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("address", channel.topic());
            entry.put("description", channel.description() + " Key: " + channel.key() + ". Written by " + String.join(", ", channel.writers())
                    + "; read by " + String.join(", ", channel.readers()) + ".");
            entry.put("messages", messages);
            if (channel.topic().contains("{")) {
                entry.put("parameters", map("principal", map("description", "the submitter's Kafka principal, e.g. team-a-ci")));
            }
            channels.put(channel.name(), entry);
            operations.put("write" + capitalized(channel.name()), map("action", "send", "channel", map("$ref", "#/channels/" + channel.name()),
                    "description", "Written by " + String.join(", ", channel.writers()) + "."));
            operations.put("read" + capitalized(channel.name()), map("action", "receive", "channel", map("$ref", "#/channels/" + channel.name()),
                    "description", "Read by " + String.join(", ", channel.readers()) + "."));
        }
        document.put("channels", channels);
        document.put("operations", operations);
        Map<String, Object> messages = new LinkedHashMap<>();
        Map<String, Object> schemas = new LinkedHashMap<>();
        schemas.put("CloudEvent", envelope());
        for (EventType type : used) {
            Map<String, Object> message = new LinkedHashMap<>();
            message.put("name", type.cloudEventType());
            message.put("contentType", "application/cloudevents+json");
            message.put("headers", map("type", "object", "properties", map("traceparent", map("type", "string",
                    "description", "W3C trace context of the job's trace (optional)"))));
            message.put("payload", map("$ref", "#/components/schemas/" + type.cloudEventType()));
            messages.put(type.cloudEventType(), message);
            schemas.put(type.cloudEventType(), map("allOf", List.of(map("$ref", "#/components/schemas/CloudEvent"), map(
                    "required", type.isJobEvent() ? List.of("data", "jobuid", "subject") : List.of("data"),
                    "properties", map("type", map("const", type.cloudEventType()), "data", data(type.dataType()))))));
        }
        document.put("components", map("messages", messages, "schemas", schemas));
        return document;
    }

    /** The CloudEvents attributes every Muster event has, as {@link EventSerde} writes them. */
    private static Map<String, Object> envelope() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("specversion", map("const", EventSerde.SPEC_VERSION));
        properties.put("id", map("type", "string", "minLength", 1, "description", "unique per event; a repeat of an event keeps its id"));
        properties.put("source", map("type", "string", "minLength", 1, "description", "who wrote it, e.g. /muster/queue-service"));
        properties.put("type", map("type", "string"));
        properties.put("subject", map("type", "string", "description", "namespace/name of the job (configuration: its object; members: the"
                + " cluster); optional on a submission, which is named by its manifest"));
        properties.put("time", map("type", "string", "format", "date-time", "description", "optional: absent, the record's timestamp"));
        properties.put("datacontenttype", map("const", EventSerde.CONTENT_TYPE));
        properties.put("schemaversion", map("type", "integer", "minimum", 1, "maximum", EventSerde.SCHEMA_VERSION,
                "description", "the version of the data's schema (an extension attribute); absent means 1"));
        properties.put("jobuid", map("type", "string", "minLength", 1, "description", "the job's fleet UID on job events (an extension"
                + " attribute), also the record's key"));
        properties.put("data", map("type", "object"));
        return map("type", "object", "required", List.of("specversion", "id", "source", "type"), "properties", properties);
    }

    /** The schema of an event's data, from the record it is read into; Kubernetes objects inside are objects. */
    private static JsonNode data(Class<?> type) {
        SchemaGeneratorConfigBuilder config = new SchemaGeneratorConfigBuilder(MusterJson.json(), SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON)
                .with(new JacksonModule()).with(Option.DEFINITIONS_FOR_ALL_OBJECTS).without(Option.SCHEMA_VERSION_INDICATOR);
        config.forTypesInGeneral().withCustomDefinitionProvider((target, context) -> {
            Class<?> raw = target.getErasedType();
            boolean kubernetesObject = raw.getName().startsWith("io.fabric8.") || io.fabric8.kubernetes.api.model.HasMetadata.class.isAssignableFrom(raw);
            if (!kubernetesObject) {
                return null;
            }
            ObjectNode object = context.getGeneratorConfig().createObjectNode().put("type", "object")
                    .put("description", "a Kubernetes " + raw.getSimpleName() + " as the API server serves it");
            return new com.github.victools.jsonschema.generator.CustomDefinition(object,
                    com.github.victools.jsonschema.generator.CustomDefinition.DefinitionType.INLINE,
                    com.github.victools.jsonschema.generator.CustomDefinition.AttributeInclusion.NO);
        });
        ObjectNode schema = new SchemaGenerator(config.build()).generateSchema(type);
        return inlined(schema);
    }

    /** The schema with its local definitions ({@code $defs}) moved in place, so that each event's data stands alone. */
    private static JsonNode inlined(ObjectNode schema) {
        JsonNode definitions = schema.remove("$defs");
        return definitions == null ? schema : resolve(schema, definitions, new ArrayList<>());
    }

    private static JsonNode resolve(JsonNode node, JsonNode definitions, List<String> within) {
        if (node.isObject()) {
            JsonNode reference = node.get("$ref");
            if (reference != null && reference.asText().startsWith("#/$defs/")) {
                String name = reference.asText().substring("#/$defs/".length());
                if (within.contains(name)) {
                    return MusterJson.json().createObjectNode().put("type", "object").put("description", "a nested " + name);
                }
                within.add(name);
                JsonNode resolved = resolve(definitions.get(name), definitions, within);
                within.remove(within.size() - 1);
                return resolved;
            }
            ObjectNode copy = MusterJson.json().createObjectNode();
            node.fields().forEachRemaining(field -> copy.set(field.getKey(), resolve(field.getValue(), definitions, within)));
            return copy;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = MusterJson.json().createArrayNode();
            node.forEach(element -> copy.add(resolve(element, definitions, within)));
            return copy;
        }
        return node;
    }

    /** A map in the order given: the document reads the same from one run to the next. */
    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static String capitalized(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
