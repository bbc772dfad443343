package dev.muster.model.json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.quota.ElasticQuotaTree;
import io.fabric8.kubernetes.api.model.HasMetadata;

/** Reads and writes Muster's API objects as manifests (YAML or JSON), with errors a user can act on. */
public final class Manifests {

    private static final Map<String, Class<? extends HasMetadata>> KINDS = kinds(List.of(
            new Kind(PyTorchJob.API_VERSION, PyTorchJob.KIND, PyTorchJob.class),
            new Kind(PropagationPolicy.API_VERSION, PropagationPolicy.KIND, PropagationPolicy.class),
            new Kind(ElasticQuotaTree.API_VERSION, ElasticQuotaTree.KIND, ElasticQuotaTree.class),
            new Kind(Queue.API_VERSION, Queue.KIND, Queue.class),
            new Kind(Queue.API_VERSION, QueueUnit.KIND, QueueUnit.class)));

    private Manifests() {
    }

    private record Kind(String apiVersion, String kind, Class<? extends HasMetadata> type) {
    }

    /**
     * Reads one manifest into the API type its {@code apiVersion} and {@code kind} name.
     *
     * @throws ManifestException when the text is not one manifest of a kind Muster knows, or a field has the wrong type
     */
    public static HasMetadata read(String text) {
        return read(readTree(text));
    }

    /**
     * Reads one manifest already parsed as JSON into the API type its {@code apiVersion} and {@code kind} name.
     *
     * @throws ManifestException as {@link #read(String)} does
     */
    public static HasMetadata read(JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            throw new ManifestException("manifest must be an object with apiVersion and kind, got "
                    + (tree == null ? "nothing" : tree.getNodeType()));
        }
        String apiVersion = tree.path("apiVersion").asText("");
        String kind = tree.path("kind").asText("");
        if (kind.isEmpty() || apiVersion.isEmpty()) {
            throw new ManifestException("manifest must have apiVersion and kind, got apiVersion \"" + apiVersion
                    + "\" and kind \"" + kind + "\"");
        }
        Class<? extends HasMetadata> type = KINDS.get(apiVersion + "/" + kind);
        if (type == null) {
            throw new ManifestException("unknown kind \"" + kind + "\" (apiVersion \"" + apiVersion + "\"); Muster accepts "
                    + KINDS.keySet().stream().map(Manifests::describe).collect(Collectors.joining(", ")));
        }
        return convert(tree, type, kind);
    }

    /**
     * Reads one manifest that must be of the given type.
     *
     * @throws ManifestException when it is not, or cannot be read
     */
    public static <T extends HasMetadata> T read(String text, Class<T> type) {
        return ofType(read(text), type);
    }

    /** Reads one manifest already parsed as JSON that must be of the given type. */
    public static <T extends HasMetadata> T read(JsonNode tree, Class<T> type) {
        return ofType(read(tree), type);
    }

    private static <T extends HasMetadata> T ofType(HasMetadata object, Class<T> type) {
        if (!type.isInstance(object)) {
            throw new ManifestException("expected kind " + HasMetadata.getKind(type) + ", got " + object.getKind());
        }
        return type.cast(object);
    }

    /** A deep copy of an API object, through Jackson's token buffer rather than text (no YAML parser on the way). */
    public static <T extends HasMetadata> T copy(T object) {
        @SuppressWarnings("unchecked")
        Class<T> type = (Class<T>) object.getClass();
        return MusterJson.json().convertValue(object, type);
    }

    /** The object as JSON. */
    public static String toJson(Object object) {
        try {
            return MusterJson.json().writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + object.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** The object as YAML, as {@code kubectl get -o yaml} would show it. */
    public static String toYaml(Object object) {
        try {
            return MusterJson.yaml().writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + object.getClass().getSimpleName() + " as YAML", e);
        }
    }

    private static JsonNode readTree(String text) {
        if (text == null || text.isBlank()) {
            throw new ManifestException("manifest is empty");
        }
        try (JsonParser parser = MusterJson.yaml().createParser(text)) {
            List<JsonNode> all = new ArrayList<>();
            for (JsonNode document = MusterJson.yaml().readTree(parser); document != null; document = MusterJson.yaml().readTree(parser)) {
                if (!document.isNull() && !document.isMissingNode()) {
                    all.add(document);
                }
            }
            if (all.isEmpty()) {
                throw new ManifestException("manifest is empty");
            }
            if (all.size() > 1) {
                throw new ManifestException("expected one manifest, found " + all.size() + " documents");
            }
            if (!all.get(0).isObject()) {
                throw new ManifestException("manifest must be an object with apiVersion and kind, got " + all.get(0).getNodeType());
            }
            return all.get(0);
        } catch (IOException e) {
            throw new ManifestException("cannot parse manifest as YAML or JSON: " + MusterJson.firstLine(e.getMessage()));
        }
    }

    private static <T extends HasMetadata> T convert(JsonNode tree, Class<T> type, String kind) {
        try {
            return MusterJson.json().treeToValue(tree, type);
        } catch (JsonMappingException e) {
            throw new ManifestException("cannot read " + kind + ": " + MusterJson.describe(e));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new ManifestException("cannot read " + kind + ": " + MusterJson.firstLine(e.getMessage()));
        }
    }

    private static String describe(String key) {
        int slash = key.lastIndexOf('/');
        return key.substring(slash + 1) + " (" + key.substring(0, slash) + ")";
    }


    private static Map<String, Class<? extends HasMetadata>> kinds(List<Kind> kinds) {
        Map<String, Class<? extends HasMetadata>> map = new LinkedHashMap<>();
        kinds.forEach(kind -> map.put(kind.apiVersion() + "/" + kind.kind(), kind.type()));
        return java.util.Collections.unmodifiableMap(map);
    }
}
