package dev.muster.simulator.cluster;

import java.time.Clock;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * The binding a scheduler assigns a pod to a node with ({@code POST .../namespaces/{ns}/bindings}, or
 * {@code .../pods/{name}/binding}), which fabric8's CRUD mode does not serve. As on a real API server, one write
 * sets the pod's node and its {@code PodScheduled} condition, so watchers see one change, and a pod already
 * assigned is refused with 409.
 */
final class PodBindings {

    private static final Pattern BINDINGS = Pattern.compile("^/api/v1/namespaces/([^/?]+)/bindings/?(?:\\?.*)?$");
    private static final Pattern POD_BINDING = Pattern.compile("^/api/v1/namespaces/([^/?]+)/pods/([^/?]+)/binding/?(?:\\?.*)?$");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Writers other than the scheduler (a kubelet, a label change) may get in between; each attempt reads the pod again. */
    private static final int ATTEMPTS = 5;

    private final StoredObjects store;
    private final Clock clock;

    PodBindings(Dispatcher store, Clock clock) {
        this.store = new StoredObjects(store);
        this.clock = clock;
    }

    /** Whether the request creates a binding, which {@link #bind} answers. */
    static boolean isBinding(RecordedRequest request) {
        String path = request.getPath();
        return "POST".equals(request.getMethod()) && path != null && (BINDINGS.matcher(path).matches() || POD_BINDING.matcher(path).matches());
    }

    /** Assigns the pod the binding names to the binding's target node. */
    MockResponse bind(RecordedRequest request) {
        JsonNode binding;
        try {
            binding = JSON.readTree(request.getUtf8Body());
        } catch (JsonProcessingException e) {
            return ApiStatus.failure(400, "BadRequest", "the binding is not JSON: " + e.getOriginalMessage());
        }
        Matcher podBinding = POD_BINDING.matcher(request.getPath());
        Matcher bindings = BINDINGS.matcher(request.getPath());
        String namespace = podBinding.matches() ? podBinding.group(1) : bindings.matches() ? bindings.group(1) : "";
        String pod = podBinding.matches() ? podBinding.group(2) : binding.path("metadata").path("name").asText("");
        String node = binding.path("target").path("name").asText("");
        if (pod.isEmpty() || node.isEmpty()) {
            return ApiStatus.failure(400, "BadRequest", "a binding names its pod (metadata.name) and its node (target.name)");
        }
        String podPath = "/api/v1/namespaces/" + namespace + "/pods/" + pod;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Optional<ObjectNode> current = store.read(podPath);
            if (current.isEmpty()) {
                return ApiStatus.failure(404, "NotFound", "pods \"" + pod + "\" not found");
            }
            String assigned = current.get().path("spec").path("nodeName").asText("");
            if (!assigned.isEmpty()) {
                return ApiStatus.failure(409, "Conflict", "Operation cannot be fulfilled on pods/binding \"" + pod + "\": pod " + pod
                        + " is already assigned to node \"" + assigned + "\"");
            }
            MockResponse written = store.patchIfUnchanged(podPath, current.get(), assignment(current.get(), node));
            if (written == null) {
                continue;
            }
            return written.code() / 100 == 2
                    ? ApiStatus.json(201, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}")
                    : written;
        }
        return ApiStatus.failure(409, "Conflict", "pod " + pod + " changed during each of " + ATTEMPTS + " attempts to bind it");
    }

    /**
     * The JSON patch that sets the node and the {@code PodScheduled} condition; applied only to the version read, so a
     * write in between has the binding tried again on the new version.
     */
    private ArrayNode assignment(ObjectNode pod, String node) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ArrayNode conditions = nodes.arrayNode();
        pod.path("status").path("conditions").forEach(condition -> {
            if (!"PodScheduled".equals(condition.path("type").asText())) {
                conditions.add(condition);
            }
        });
        conditions.addObject().put("type", "PodScheduled").put("status", "True").put("lastTransitionTime", clock.instant().toString());
        ArrayNode patch = nodes.arrayNode();
        patch.addObject().put("op", "add").put("path", "/spec/nodeName").put("value", node);
        if (pod.path("status").isObject()) {
            patch.addObject().put("op", "add").put("path", "/status/conditions").set("value", conditions);
        } else {
            patch.addObject().put("op", "add").put("path", "/status").set("value", nodes.objectNode().set("conditions", conditions));
        }
        return patch;
    }
}
