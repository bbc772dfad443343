package dev.muster.simulator.cluster;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import io.fabric8.mockwebserver.http.MockResponse;

/** Answers in the shapes a Kubernetes API server uses: JSON bodies, and {@code Status} objects for failures. */
final class ApiStatus {

    private ApiStatus() {
    }

    static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }

    /** A {@code Status} failure, e.g. {@code 404 NotFound} or {@code 400 BadRequest}, with the message escaped as JSON. */
    static MockResponse failure(int code, String reason, String message) {
        return json(code, failureBody(code, reason, message));
    }

    /** The body of {@link #failure}, for answers that are not the CRUD server's. */
    static String failureBody(int code, String reason, String message) {
        return JsonNodeFactory.instance.objectNode().put("kind", "Status").put("apiVersion", "v1").<com.fasterxml.jackson.databind.node.ObjectNode>set(
                "metadata", JsonNodeFactory.instance.objectNode()).put("status", "Failure").put("message", message).put("reason", reason)
                .put("code", code).toString();
    }
}
