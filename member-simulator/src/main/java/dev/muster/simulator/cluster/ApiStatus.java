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

    /**
     * A {@code 422 Invalid} with the causes in its details, as the API server answers an object that fails its schema or
     * name rules: kubectl then shows {@code The PyTorchJob "x" is invalid: spec.replicas: Invalid value: ...}.
     *
     * @param causes each field and what is wrong with it
     */
    static MockResponse invalid(String group, String kind, String name, java.util.List<java.util.Map.Entry<String, String>> causes, String message) {
        com.fasterxml.jackson.databind.node.ObjectNode status = JsonNodeFactory.instance.objectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", message).put("reason", "Invalid").put("code", 422);
        com.fasterxml.jackson.databind.node.ObjectNode details = status.putObject("details").put("name", name).put("group", group).put("kind", kind);
        com.fasterxml.jackson.databind.node.ArrayNode list = details.putArray("causes");
        causes.forEach(cause -> list.addObject().put("reason", "FieldValueInvalid").put("message", cause.getValue()).put("field", cause.getKey()));
        return json(422, status.toString());
    }

    /** The body of {@link #failure}, for answers that are not the CRUD server's. */
    static String failureBody(int code, String reason, String message) {
        return JsonNodeFactory.instance.objectNode().put("kind", "Status").put("apiVersion", "v1").<com.fasterxml.jackson.databind.node.ObjectNode>set(
                "metadata", JsonNodeFactory.instance.objectNode()).put("status", "Failure").put("message", message).put("reason", reason)
                .put("code", code).toString();
    }
}
