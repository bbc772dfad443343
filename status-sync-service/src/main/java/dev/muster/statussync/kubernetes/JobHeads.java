package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

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
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("metadata".equals(field) && value == JsonToken.START_OBJECT) {
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
                case "name" -> metadata.setName(parser.getValueAsString());
                case "namespace" -> metadata.setNamespace(parser.getValueAsString());
                case "uid" -> metadata.setUid(parser.getValueAsString());
                case "resourceVersion" -> metadata.setResourceVersion(parser.getValueAsString());
                case "generation" -> metadata.setGeneration(parser.currentToken() == JsonToken.VALUE_NULL ? null : parser.getValueAsLong());
                case "creationTimestamp" -> metadata.setCreationTimestamp(parser.getValueAsString());
                case "deletionTimestamp" -> metadata.setDeletionTimestamp(parser.getValueAsString());
                case "labels" -> metadata.setLabels(MAPPER.readValue(parser, STRINGS));
                case "annotations" -> metadata.setAnnotations(MAPPER.readValue(parser, STRINGS));
                default -> parser.skipChildren();
            }
        }
        return metadata;
    }
}
