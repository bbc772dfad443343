package dev.muster.simulator.cluster;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * Reads and conditionally patches objects in the member's store, for the API behaviours the store does not have
 * itself (bindings, graceful deletion): each reads an object, and writes it back only if nobody wrote in between.
 */
final class StoredObjects {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Dispatcher store;

    StoredObjects(Dispatcher store) {
        this.store = store;
    }

    Optional<ObjectNode> read(String path) {
        MockResponse found = store.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET, path, new Headers.Builder().build(), new Buffer()));
        if (found.code() != 200 || found.getBody() == null) {
            return Optional.empty();
        }
        try {
            return JSON.readTree(found.getBody().getBytes()) instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Applies the JSON patch, preceded by a test of the version read: the store's answer, or null when the object
     * changed since it was read.
     */
    MockResponse patchIfUnchanged(String path, ObjectNode read, ArrayNode operations) {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", read.path("metadata").path("resourceVersion").asText());
        patch.addAll(operations);
        Headers headers = new Headers.Builder().add("Content-Type", "application/json-patch+json").build();
        try {
            return store.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.PATCH, path, headers,
                    new Buffer(patch.toString().getBytes(StandardCharsets.UTF_8))));
        } catch (JsonPatchException e) {
            return null;
        }
    }
}
