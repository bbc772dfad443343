package dev.muster.simulator.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobValidator;
import dev.muster.model.json.ManifestException;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.policy.PropagationPolicyValidator;
import dev.muster.model.validation.Limits;
import dev.muster.model.validation.Violation;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * What the fleet API server does with a write before it stores anything, as a Kubernetes API server does: it takes the
 * content types a real one takes (JSON, and Kubernetes protobuf for the built-in kinds kubectl sends so) and refuses
 * others at once with 415; refuses objects over the size etcd stores; applies merge patches as RFC 7386 says (lists
 * replaced); checks names, and custom resources against their CRD's schema; runs Muster's validation of jobs and
 * policies as its admission webhook would on a real fleet; and honours {@code dryRun}. What passes is stored by the CRUD
 * store underneath, as a plain create or replace.
 */
final class FleetAdmission {

    /** The name a webhook denial names, as {@code kubectl} shows it. */
    static final String WEBHOOK = "validate.muster.dev";
    /** The classes every cluster has, with their values; only they may have names starting {@code system-}. */
    static final Map<String, Integer> BUILT_IN_PRIORITY_CLASSES = Map.of("system-cluster-critical", 2_000_000_000,
            "system-node-critical", 2_000_001_000);
    private static final String PRIORITY_CLASSES = "priorityclasses.scheduling.k8s.io";
    private static final String PRIORITY_CLASS_PATH = "/apis/scheduling.k8s.io/v1/priorityclasses/";
    private static final int MAX_USER_PRIORITY = 1_000_000_000;

    /** What to do with a write: answer it here, or store this request. */
    sealed interface Outcome {
    }

    record Answer(MockResponse response) implements Outcome {
    }

    record Store(RecordedRequest request) implements Outcome {
    }

    private final Map<String, CustomResourceDefinition> definitions = new HashMap<>();
    private final Map<String, StructuralSchema> schemas = new HashMap<>();
    private final Function<String, Optional<JsonNode>> current;

    /** @param current the object the store holds at a path now, if any */
    FleetAdmission(List<CustomResourceDefinition> crds, Function<String, Optional<JsonNode>> current) {
        this.current = current;
        for (CustomResourceDefinition crd : crds) {
            String resource = crd.getSpec().getNames().getPlural() + "." + crd.getSpec().getGroup();
            definitions.put(resource, crd);
            schemas.put(resource, new StructuralSchema(MusterJson.json().valueToTree(crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema())));
        }
    }

    /** The outcome of a request; reads and deletions are stored as they come. */
    Outcome admit(RecordedRequest request) {
        String method = request.getMethod();
        Optional<ResourcePath> parsed = ResourcePath.parse(request.getPath() == null ? "" : request.getPath());
        if (parsed.isEmpty() || !List.of("POST", "PUT", "PATCH").contains(method)) {
            return new Store(request);
        }
        ResourcePath path = parsed.get();
        String contentType = mediaType(request.getHeader("Content-Type"));
        byte[] body = request.getBody() == null ? new byte[0] : request.getBody().getBytes();
        if (body.length > Limits.KUBERNETES_OBJECT_BYTES) {
            return answer(413, "RequestEntityTooLarge", "the object is " + body.length + " bytes; a Kubernetes API server stores at most "
                    + Limits.KUBERNETES_OBJECT_BYTES + " (etcd's limit of 1.5 MiB)");
        }
        if (path.subresource() != null) {
            // Status and bindings are written by Muster's services and the simulated controllers: stored as sent.
            return new Store(request);
        }
        if (method.equals("PATCH")) {
            Optional<Outcome> refused = patchRefused(contentType);
            if (refused.isPresent()) {
                return refused.get();
            }
        }
        JsonNode object;
        try {
            if (method.equals("PATCH")) {
                Optional<JsonNode> stored = current.apply(path.objectPath());
                if (stored.isEmpty()) {
                    return notFound(path);
                }
                JsonNode patch = MusterJson.json().readTree(body);
                object = contentType.equals("application/json-patch+json") ? JsonPatch.apply(patch, stored.get())
                        : MergePatch.apply(stored.get().deepCopy(), patch);
            } else {
                object = read(contentType, body);
            }
        } catch (JsonPatchException e) {
            // As an API server answers a JSON patch it cannot apply (a failed test, a missing path): invalid, not unreadable.
            return answer(422, "Invalid", "the JSON patch cannot be applied: " + MusterJson.firstLine(e.getMessage()));
        } catch (UnsupportedContent e) {
            return answer(415, "UnsupportedMediaType", "the fleet API server reads JSON; " + e.getMessage() + " is read only for Namespace,"
                    + " ConfigMap, Secret and PriorityClass, as kubectl sends them");
        } catch (IOException | RuntimeException e) {
            return answer(400, "BadRequest", "the request body cannot be read: " + MusterJson.firstLine(e.getMessage()));
        }
        if (!(object instanceof ObjectNode objectNode)) {
            return answer(400, "BadRequest", "the request body is not a JSON object");
        }
        Optional<Outcome> invalid = validate(path, objectNode, method.equals("POST"));
        if (invalid.isPresent()) {
            return invalid.get();
        }
        boolean create = method.equals("POST");
        if (create && !objectNode.path("metadata").path("name").asText("").isEmpty()) {
            // The store's own answer says "PyTorchJob 'x' already exists"; kubectl shows a real server's, which names the resource.
            ResourcePath created = new ResourcePath(path.group(), path.version(), path.namespace(), path.resource(),
                    objectNode.path("metadata").path("name").asText(), null);
            if (current.apply(created.objectPath()).isPresent()) {
                return answer(409, "AlreadyExists", created.qualifiedResource() + " \"" + created.name() + "\" already exists");
            }
        }
        String storedPath = withoutDryRun(request.getPath());
        if (isDryRun(request.getPath())) {
            return new Answer(ApiStatus.json(create ? 201 : 200, objectNode.toString()));
        }
        return new Store(new RecordedRequest(request.getHttpVersion(), create ? request.method() : io.fabric8.mockwebserver.dsl.HttpMethod.PUT,
                storedPath, jsonHeaders(request.getHeaders()), new Buffer(objectNode.toString().getBytes(StandardCharsets.UTF_8))));
    }

    /** The body of a create or replace as JSON: JSON itself, or one of the built-in kinds kubectl sends as protobuf. */
    private static JsonNode read(String contentType, byte[] body) throws IOException {
        if (contentType.equals(ProtobufObjects.CONTENT_TYPE)) {
            return ProtobufObjects.read(body).orElseThrow(() -> new UnsupportedContent(contentType));
        }
        if (!contentType.isEmpty() && !contentType.equals("application/json") && !contentType.equals("application/yaml")) {
            throw new UnsupportedContent(contentType);
        }
        // JSON is read as JSON, as a real API server reads it: YAML would take a body that is no JSON (`{a: 1}`).
        return (contentType.equals("application/json") ? MusterJson.json() : MusterJson.yaml()).readTree(body);
    }

    private static Optional<Outcome> patchRefused(String contentType) {
        return switch (contentType) {
            case "application/merge-patch+json", "application/strategic-merge-patch+json", "application/json-patch+json" -> Optional.empty();
            case "application/apply-patch+yaml" -> Optional.of(answer(415, "UnsupportedMediaType",
                    "server-side apply is not served by the local fleet API; use kubectl apply without --server-side"));
            default -> Optional.of(answer(415, "UnsupportedMediaType", "the server does not accept patches of type " + contentType));
        };
    }

    /** Name rules, the CRD's schema, PriorityClass rules, and Muster's own checks of jobs and policies. */
    private Optional<Outcome> validate(ResourcePath path, ObjectNode object, boolean create) {
        String kind = object.path("kind").asText("");
        String name = object.path("metadata").path("name").asText(null);
        if (name == null && object.path("metadata").has("generateName")) {
            return Optional.empty();
        }
        Optional<String> badName = KubernetesNames.problem(name, path.resource().equals("namespaces"));
        if (badName.isPresent()) {
            return Optional.of(invalid(path, kind, name, List.of(new StructuralSchema.Cause("metadata.name", badName.get()))));
        }
        StructuralSchema schema = schemas.get(path.qualifiedResource());
        if (schema != null) {
            List<StructuralSchema.Cause> causes = schema.validate(object);
            if (!causes.isEmpty()) {
                return Optional.of(invalid(path, kind, name, causes));
            }
        }
        if (path.qualifiedResource().equals(PRIORITY_CLASSES)) {
            return priorityClassRefused(path, object, name);
        }
        if (create && path.qualifiedResource().equals("pytorchjobs." + PyTorchJob.GROUP)) {
            Optional<Outcome> noPriorityClass = priorityClassMissing(path, object, name);
            if (noPriorityClass.isPresent()) {
                return noPriorityClass;
            }
        }
        return admission(path, object);
    }

    /**
     * Kubernetes's Priority admission: a job created naming a PriorityClass that does not exist is forbidden, as a pod
     * would be; the class is read when the job is created, so one created later serves the jobs created after it.
     */
    private Optional<Outcome> priorityClassMissing(ResourcePath path, ObjectNode job, String name) {
        JsonNode named = job.path("spec").path("runPolicy").path("schedulingPolicy").path("priorityClass");
        if (!named.isTextual() || current.apply(PRIORITY_CLASS_PATH + named.asText()).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(answer(403, "Forbidden", path.qualifiedResource() + " \"" + name + "\" is forbidden: no PriorityClass with name "
                + named.asText() + " was found"));
    }

    /** What a Kubernetes API server refuses of a PriorityClass: no integer value, a value beyond the user range, a reserved name. */
    private static Optional<Outcome> priorityClassRefused(ResourcePath path, ObjectNode priorityClass, String name) {
        JsonNode value = priorityClass.path("value");
        if (!value.isInt()) {
            return Optional.of(invalid(path, "PriorityClass", name, List.of(new StructuralSchema.Cause("value",
                    value.isMissingNode() ? "Required value" : "Invalid value: must be a 32-bit integer"))));
        }
        if (BUILT_IN_PRIORITY_CLASSES.containsKey(name)) {
            return Optional.empty();
        }
        if (name != null && name.startsWith("system-")) {
            return Optional.of(answer(403, "Forbidden", "priorityclasses.scheduling.k8s.io \"" + name
                    + "\" is forbidden: priority class names with 'system-' prefix are reserved for system use only"));
        }
        if (value.intValue() > MAX_USER_PRIORITY) {
            return Optional.of(invalid(path, "PriorityClass", name, List.of(new StructuralSchema.Cause("value",
                    "Forbidden: maximum allowed value of a user defined priority is " + MAX_USER_PRIORITY))));
        }
        return Optional.empty();
    }

    /** Muster's validation, as its ValidatingWebhookConfiguration would run it on a real fleet. */
    private static Optional<Outcome> admission(ResourcePath path, ObjectNode object) {
        List<Violation> violations;
        try {
            if (path.qualifiedResource().equals("pytorchjobs." + PyTorchJob.GROUP)) {
                violations = PyTorchJobValidator.validate(Manifests.read(object, PyTorchJob.class));
            } else if (path.qualifiedResource().equals("propagationpolicies." + PropagationPolicy.GROUP)) {
                violations = PropagationPolicyValidator.validate(Manifests.read(object, PropagationPolicy.class));
            } else {
                return Optional.empty();
            }
        } catch (ManifestException e) {
            return Optional.of(answer(400, "BadRequest", "admission webhook \"" + WEBHOOK + "\" denied the request: " + e.getMessage()));
        }
        if (violations.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(answer(400, "BadRequest", "admission webhook \"" + WEBHOOK + "\" denied the request: "
                + violations.stream().map(Violation::toString).collect(Collectors.joining("; "))));
    }

    /** A 422 as the API server words it, its causes in its details: one cause as it is, several in brackets. */
    private static Answer invalid(ResourcePath path, String kind, String name, List<StructuralSchema.Cause> causes) {
        String joined = causes.size() == 1 ? causes.get(0).toString()
                : "[" + causes.stream().map(StructuralSchema.Cause::toString).collect(Collectors.joining(", ")) + "]";
        String qualifiedKind = path.group().isEmpty() ? kind : kind + "." + path.group();
        return new Answer(ApiStatus.invalid(path.group(), kind, name, causes.stream().map(cause -> Map.entry(cause.field(), cause.message())).toList(),
                qualifiedKind + " \"" + name + "\" is invalid: " + joined));
    }

    /** A 404 as the API server words it: {@code pytorchjobs.kubeflow.org "x" not found}. */
    static Answer notFound(ResourcePath path) {
        return answer(404, "NotFound", path.qualifiedResource() + " \"" + path.name() + "\" not found");
    }

    private static Answer answer(int code, String reason, String message) {
        return new Answer(ApiStatus.failure(code, reason, message));
    }

    /** The media type without parameters ({@code application/json; charset=utf-8} is {@code application/json}). */
    private static String mediaType(String header) {
        if (header == null) {
            return "";
        }
        int semicolon = header.indexOf(';');
        return (semicolon < 0 ? header : header.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }

    private static boolean isDryRun(String path) {
        return path.contains("dryRun=All") || path.contains("dryRun=all");
    }

    private static String withoutDryRun(String path) {
        return path.replaceAll("[?&]dryRun=[^&]*", "").replaceFirst("^([^?]*)&", "$1?");
    }

    private static Headers jsonHeaders(Headers headers) {
        return headers.newBuilder().removeAll("Content-Type").removeAll("Content-Length").add("Content-Type", "application/json").build();
    }

    /** A body of a type the fleet API server does not read. */
    static final class UnsupportedContent extends RuntimeException {
        UnsupportedContent(String contentType) {
            super(contentType);
        }
    }
}
