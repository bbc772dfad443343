package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.muster.fleetclient.raw.JsonValues;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * What status sync reads of a fleet job the API server sends back: the metadata it remembers the object by (name,
 * UID, version, the labels and annotations that say whose events it stands for) and the status. Read as a stream,
 * the rest (the pod templates, the managed fields) skipped unbound.
 */
public final class JobHeads {

    private static final ObjectMapper MAPPER = MusterJson.json();
    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    private JobHeads() {
    }

    /** The job's head, from its JSON. */
    public static PyTorchJob read(byte[] json) throws IOException {
        PyTorchJob job = new PyTorchJob();
        try (JsonParser parser = MAPPER.createParser(json)) {
            parser.nextToken();
            JsonValues.expect(parser, JsonToken.START_OBJECT, "the job");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("metadata".equals(field) && value != JsonToken.VALUE_NULL) {
                    JsonValues.expect(parser, JsonToken.START_OBJECT, "metadata");
                    job.setMetadata(metadata(parser));
                } else if ("status".equals(field)) {
                    job.setStatus(MAPPER.readValue(parser, PyTorchJobStatus.class));
                } else {
                    parser.skipChildren();
                }
            }
        }
        return job;
    }

    private static ObjectMeta metadata(JsonParser parser) throws IOException {
        ObjectMeta metadata = new ObjectMeta();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            switch (field) {
                case "name" -> metadata.setName(JsonValues.text(parser, "metadata.name"));
                case "namespace" -> metadata.setNamespace(JsonValues.text(parser, "metadata.namespace"));
                case "uid" -> metadata.setUid(JsonValues.text(parser, "metadata.uid"));
                case "resourceVersion" -> metadata.setResourceVersion(JsonValues.text(parser, "metadata.resourceVersion"));
                case "generation" -> metadata.setGeneration(JsonValues.whole(parser, "metadata.generation"));
                case "creationTimestamp" -> metadata.setCreationTimestamp(JsonValues.text(parser, "metadata.creationTimestamp"));
                case "deletionTimestamp" -> metadata.setDeletionTimestamp(JsonValues.text(parser, "metadata.deletionTimestamp"));
                case "labels" -> metadata.setLabels(MAPPER.readValue(parser, STRINGS));
                case "annotations" -> metadata.setAnnotations(MAPPER.readValue(parser, STRINGS));
                default -> parser.skipChildren();
            }
        }
        return metadata;
    }
}
