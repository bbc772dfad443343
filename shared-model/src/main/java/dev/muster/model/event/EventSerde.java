package dev.muster.model.event;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.ManifestException;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.model.validation.Limits;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * Writes and reads Muster events as CloudEvents 1.0 in JSON structured mode, the one wire format of every
 * Muster topic:
 * <pre>{@code
 * {"specversion":"1.0","id":"…","source":"/muster/queue-service","type":"dev.muster.job.queued",
 *  "subject":"default/pytorch-test","time":"2026-11-29T17:00:00Z","datacontenttype":"application/json",
 *  "schemaversion":1,"jobuid":"…","data":{…}}
 * }</pre>
 * {@code schemaversion} and {@code jobuid} are CloudEvents extension attributes: the version of the
 * {@code data} schema, and, on job events, the job's fleet UID (also the Kafka key). Configuration events
 * ({@code dev.muster.config.*}) carry no {@code jobuid}; their key is {@code Kind/namespace/name}.
 */
public final class EventSerde {

    /** The version of the data schemas this build writes, and the newest it reads. */
    public static final int SCHEMA_VERSION = 1;
    public static final String SPEC_VERSION = "1.0";
    public static final String CONTENT_TYPE = "application/json";

    private static final ObjectMapper JSON = MusterJson.json();

    private EventSerde() {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record Envelope(String specversion, String id, String source, String type, String subject, Instant time,
                            String datacontenttype, int schemaversion, String jobuid, JsonNode data) {
    }

    public static byte[] serialize(MusterEvent event) {
        Object data = event instanceof JobEvent job ? job.data()
                : event instanceof ConfigEvent config ? config.data() : ((MemberEvent) event).data();
        String jobUid = event instanceof JobEvent job ? job.job().uid() : null;
        Envelope envelope = new Envelope(SPEC_VERSION, event.id(), event.source(), event.type().cloudEventType(),
                event.subject(), event.time(), CONTENT_TYPE, SCHEMA_VERSION, jobUid, JSON.valueToTree(data));
        try {
            return JSON.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event.type() + " event of " + event.subject(), e);
        }
    }

    /**
     * Reads one event.
     *
     * @throws MalformedEventException saying which attribute or field is wrong, fit for a dead-letter record
     */
    public static MusterEvent deserialize(byte[] payload) throws MalformedEventException {
        return deserialize(payload, null);
    }

    /**
     * Reads one event a producer sent, whose {@code time} CloudEvents makes optional: an event without one takes
     * {@code timeIfAbsent} (its record's timestamp), so that reading it again gives the same event.
     *
     * @param timeIfAbsent null to require {@code time}
     * @throws MalformedEventException saying which attribute or field is wrong, fit for a dead-letter record
     */
    public static MusterEvent deserialize(byte[] payload, Instant timeIfAbsent) throws MalformedEventException {
        if (payload == null || payload.length == 0) {
            throw new MalformedEventException("empty record");
        }
        Limits limits = Limits.current();
        if (payload.length > limits.maxRecordBytes()) {
            throw new MalformedEventException("a record of " + payload.length + " bytes is larger than the " + limits.maxRecordBytes()
                    + " bytes Muster reads (an object of at most " + limits.maxObjectBytes() + " bytes, muster.limits.max-object-bytes,"
                    + " and its envelope)");
        }
        JsonNode node;
        try {
            node = JSON.readTree(payload);
        } catch (IOException e) {
            throw new MalformedEventException("not JSON: " + MusterJson.firstLine(e.getMessage()));
        }
        if (!(node instanceof ObjectNode)) {
            throw new MalformedEventException("a CloudEvent must be a JSON object");
        }
        String specVersion = required(node, "specversion");
        if (!SPEC_VERSION.equals(specVersion)) {
            throw new MalformedEventException("unsupported CloudEvents specversion \"" + specVersion + "\", expected \"" + SPEC_VERSION + "\"");
        }
        String typeName = required(node, "type");
        EventType type = EventType.fromCloudEventType(typeName)
                .orElseThrow(() -> new MalformedEventException("unknown event type \"" + typeName + "\""));
        String id = required(node, "id");
        String source = required(node, "source");
        JsonNode data = node.get("data");
        String subject = subject(node, type, data);
        JobRef job = type.isJobEvent() ? job(subject, required(node, "jobuid")) : null;
        try {
            schemaVersion(node.get("schemaversion"), typeName);
        } catch (MalformedEventException e) {
            throw new MalformedEventException(job, e.getMessage());
        }
        Instant time;
        try {
            time = node.hasNonNull("time") || timeIfAbsent == null ? time(required(node, "time")) : timeIfAbsent;
        } catch (MalformedEventException e) {
            throw new MalformedEventException(job, e.getMessage());
        }
        if (type == EventType.SUBMITTED) {
            return new JobEvent(id, source, job, time, new JobSubmitted(submittedJob(job, data), submittedPriority(job, data)));
        }
        ConfigRef config = type.isJobEvent() || type.isMemberEvent() ? null : ConfigRef.of(type, subject).orElse(null);
        if (data == null || !data.isObject()) {
            throw malformed(job, config, "missing data object of " + typeName);
        }
        try {
            Object value = JSON.treeToValue(data, type.dataType());
            if (job != null) {
                return new JobEvent(id, source, job, time, (JobEventData) value);
            }
            return type.isMemberEvent() ? new MemberEvent(id, source, time, (MemberEventData) value)
                    : new ConfigEvent(id, source, time, (ConfigEventData) value);
        } catch (JsonMappingException e) {
            if (config != null) {
                // The data's one field is the object itself ({"tree": …}): its fields are what its author knows.
                throw malformed(job, config, config + " cannot be read: " + MusterJson.describe(e).replaceFirst("^(tree|policy)\\.", ""));
            }
            throw malformed(job, config, "data of " + typeName + " does not match its schema: " + MusterJson.describe(e));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw malformed(job, config, "data of " + typeName + " does not match its schema: " + MusterJson.firstLine(e.getMessage()));
        }
    }

    /**
     * An event whose {@code data} is passed on as it was read (from the fleet API), not checked: the service that
     * consumes it reads it into its type and tells the job or object what is wrong, as for any producer's event.
     *
     * @param jobUid the job's UID for a job event, else null
     */
    public static byte[] serializeUnchecked(EventType type, String id, String source, String subject, String jobUid, Instant time,
                                            JsonNode data) {
        Envelope envelope = new Envelope(SPEC_VERSION, id, source, type.cloudEventType(), subject, time, CONTENT_TYPE, SCHEMA_VERSION,
                jobUid, data);
        try {
            return JSON.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + type + " event of " + subject, e);
        }
    }

    private static MalformedEventException malformed(JobRef job, ConfigRef config, String message) {
        return config != null ? new MalformedEventException(config, message) : new MalformedEventException(job, message);
    }

    /** The {@code schemaversion} extension: an integer (as a number or, as binary-mode headers carry it, a string); absent means 1. */
    private static int schemaVersion(JsonNode attribute, String typeName) throws MalformedEventException {
        if (attribute == null || attribute.isNull()) {
            return SCHEMA_VERSION;
        }
        int version;
        if (attribute.isIntegralNumber() && attribute.canConvertToInt()) {
            version = attribute.intValue();
        } else if (attribute.isTextual() && attribute.asText().matches("[0-9]{1,9}")) {
            version = Integer.parseInt(attribute.asText());
        } else {
            throw new MalformedEventException("schemaversion must be an integer, got " + attribute);
        }
        if (version > SCHEMA_VERSION || version < 1) {
            throw new MalformedEventException("unsupported schemaversion " + version + " of " + typeName
                    + "; this build reads 1 to " + SCHEMA_VERSION);
        }
        return version;
    }

    /**
     * The event's type, read without decoding the rest: the {@code type} attribute among the record's top-level
     * attributes, nested objects skipped unread. Empty when the record is not a JSON object or names no known type;
     * {@link #deserialize} then says what is wrong.
     */
    public static Optional<EventType> peekType(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return Optional.empty();
        }
        try (JsonParser parser = JSON.getFactory().createParser(payload)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String attribute = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("type".equals(attribute)) {
                    return value == JsonToken.VALUE_STRING ? EventType.fromCloudEventType(parser.getText()) : Optional.empty();
                }
                parser.skipChildren();
            }
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The job a job event is about, read like {@link #peekType}: from the top-level {@code subject} and {@code jobuid}
     * attributes, the rest skipped unread. Empty when the record names no job.
     */
    public static Optional<JobRef> peekJob(byte[] payload) {
        if (payload == null || payload.length == 0) {
            return Optional.empty();
        }
        String subject = null;
        String uid = null;
        try (JsonParser parser = JSON.getFactory().createParser(payload)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME && (subject == null || uid == null)) {
                String attribute = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("subject".equals(attribute) && value == JsonToken.VALUE_STRING) {
                    subject = parser.getText();
                } else if ("jobuid".equals(attribute) && value == JsonToken.VALUE_STRING) {
                    uid = parser.getText();
                } else {
                    parser.skipChildren();
                }
            }
            return subject == null || uid == null ? Optional.empty() : Optional.of(job(subject, uid));
        } catch (IOException | MalformedEventException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The manifest of a submission. Producers may send it as the data object itself, as JSON or YAML text, or
     * as {@code {"job": manifest}}; a manifest without a name or namespace takes them from the subject.
     */
    /** The priority a submission of the form {@code {"job": manifest, "priority": 1000}} says the fleet API resolved. */
    private static Integer submittedPriority(JobRef job, JsonNode data) throws MalformedEventException {
        JsonNode priority = data != null && data.isObject() && data.has("job") ? data.get("priority") : null;
        if (priority == null || priority.isNull()) {
            return null;
        }
        if (!priority.isInt()) {
            throw new MalformedEventException(job, "data.priority: expected a 32-bit integer, got " + priority);
        }
        return priority.intValue();
    }

    private static PyTorchJob submittedJob(JobRef job, JsonNode data) throws MalformedEventException {
        PyTorchJob manifest;
        try {
            if (data != null && data.isTextual()) {
                manifest = Manifests.read(data.asText(), PyTorchJob.class);
            } else if (data != null && data.isObject() && data.has("job") && !data.has("kind")) {
                manifest = Manifests.read(data.get("job"), PyTorchJob.class);
            } else if (data != null && data.isObject()) {
                manifest = Manifests.read(data, PyTorchJob.class);
            } else {
                throw new MalformedEventException(job, "data of " + EventType.SUBMITTED.cloudEventType()
                        + " must be a PyTorchJob manifest: an object, JSON or YAML text, or {\"job\": manifest}");
            }
        } catch (ManifestException e) {
            throw new MalformedEventException(job, "submitted manifest: " + e.getMessage());
        }
        ObjectMeta metadata = manifest.getMetadata() == null ? new ObjectMeta() : manifest.getMetadata();
        manifest.setMetadata(metadata);
        if (metadata.getNamespace() == null) {
            metadata.setNamespace(job.namespace());
        }
        if (metadata.getName() == null) {
            metadata.setName(job.name());
        }
        if (!metadata.getNamespace().equals(job.namespace()) || !metadata.getName().equals(job.name())) {
            throw new MalformedEventException(job, "submitted manifest is " + metadata.getNamespace() + "/" + metadata.getName()
                    + " but the event's subject is " + job.subject());
        }
        return manifest;
    }

    private static String required(JsonNode node, String attribute) throws MalformedEventException {
        JsonNode value = node.get(attribute);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new MalformedEventException("missing CloudEvents attribute \"" + attribute + "\"");
        }
        return value.asText();
    }

    /**
     * The {@code subject}, which CloudEvents makes optional and Muster names every job and object by: a submission
     * without one is named by its manifest's namespace and name; any other event must say it.
     */
    private static String subject(JsonNode node, EventType type, JsonNode data) throws MalformedEventException {
        if (node.hasNonNull("subject") || type != EventType.SUBMITTED) {
            return required(node, "subject");
        }
        JsonNode manifest = data != null && data.isObject() && data.has("job") && !data.has("kind") ? data.get("job") : data;
        if (data != null && data.isTextual()) {
            try {
                manifest = MusterJson.json().valueToTree(Manifests.read(data.asText(), PyTorchJob.class));
            } catch (ManifestException e) {
                manifest = null;
            }
        }
        JsonNode metadata = manifest == null ? null : manifest.path("metadata");
        String namespace = metadata == null ? "" : metadata.path("namespace").asText("");
        String name = metadata == null ? "" : metadata.path("name").asText("");
        if (namespace.isBlank() || name.isBlank()) {
            throw new MalformedEventException("missing CloudEvents attribute \"subject\" (namespace/name), and the submitted manifest"
                    + " does not name both its namespace and its name");
        }
        return namespace + "/" + name;
    }

    private static JobRef job(String subject, String uid) throws MalformedEventException {
        int slash = subject.indexOf('/');
        if (slash <= 0 || slash == subject.length() - 1 || subject.indexOf('/', slash + 1) >= 0) {
            throw new MalformedEventException("subject must be namespace/name, got \"" + subject + "\"");
        }
        return new JobRef(subject.substring(0, slash), subject.substring(slash + 1), uid);
    }

    private static Instant time(String text) throws MalformedEventException {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new MalformedEventException("time must be RFC 3339, got \"" + text + "\"");
        }
    }

}
