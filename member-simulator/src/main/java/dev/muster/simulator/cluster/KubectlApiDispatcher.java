package dev.muster.simulator.cluster;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * The fleet API server's answers to what kubectl asks on top of create, read, update and delete: API
 * discovery, the OpenAPI documents {@code kubectl apply} reads, a JSON content type on every response (kubectl asks for protobuf for built-in kinds and must be
 * told it got JSON), and Tables with each custom resource's printer columns. Everything else goes to the CRUD
 * dispatcher underneath.
 */
final class KubectlApiDispatcher extends Dispatcher implements Resetable, CustomResourceAware {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final MemberApiDispatcher crud;
    private final ApiDiscovery discovery;
    private final OpenApiDocuments openApi;
    private final ResourceTables tables;
    private final FleetAdmission admission;

    KubectlApiDispatcher(MemberApiDispatcher crud, List<CustomResourceDefinition> definitions) {
        this.crud = crud;
        this.discovery = new ApiDiscovery(definitions);
        this.openApi = new OpenApiDocuments(discovery, definitions);
        this.tables = new ResourceTables(definitions);
        this.admission = new FleetAdmission(definitions, this::stored);
    }

    /** The object stored at a path now, read from the store as a client would. */
    private Optional<JsonNode> stored(String path) {
        MockResponse response = crud.dispatch(new RecordedRequest("HTTP/1.1", io.fabric8.mockwebserver.dsl.HttpMethod.GET, path,
                io.fabric8.mockwebserver.http.Headers.builder().build(), new io.fabric8.mockwebserver.http.Buffer()));
        if (response.code() != 200 || response.getBody() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(MAPPER.readTree(response.getBody().readUtf8()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath() == null ? "" : request.getPath();
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        boolean read = "GET".equals(request.getMethod());
        if (read) {
            Optional<MockResponse> document = discovery.document(bare).or(() -> openApi.document(bare)).map(json -> ApiStatus.json(200, json.toString()));
            if (document.isPresent()) {
                return document.get();
            }
        }
        FleetAdmission.Outcome outcome = admission.admit(request);
        if (outcome instanceof FleetAdmission.Answer answer) {
            return answer.response();
        }
        request = ((FleetAdmission.Store) outcome).request();
        String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
        boolean readNow = read && !query.contains("watch=");
        Optional<FieldSelector> selector;
        try {
            selector = readNow ? FieldSelector.inQuery(query) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return ApiStatus.failure(400, "BadRequest", e.getMessage());
        }
        MockResponse response;
        if (selector.isPresent()) {
            // The CRUD store ignores field selectors: list everything, then keep what the selector selects.
            String rest = FieldSelector.withoutSelector(query);
            response = crud.dispatch(new RecordedRequest(request.getHttpVersion(), request.method(), bare + (rest.isEmpty() ? "" : "?" + rest),
                    request.getHeaders(), request.getBody()));
        } else {
            response = crud.dispatch(request);
        }
        if (response.code() == 404 && !query.contains("watch=")) {
            // The store answers 404 with no body; kubectl shows a real server's: pytorchjobs.kubeflow.org "x" not found.
            Optional<ResourcePath> missing = ResourcePath.parse(bare).filter(resource -> resource.name() != null);
            if (missing.isPresent()) {
                return FleetAdmission.notFound(missing.get()).response();
            }
        }
        if (!readNow || response.code() != 200) {
            return withJsonType(response);
        }
        String accept = request.getHeader("Accept");
        boolean table = accept != null && accept.contains("as=Table");
        Optional<CustomResourceDefinition> definition = table ? tables.definitionFor(bare) : Optional.empty();
        Optional<String> listed = discovery.kindListedAt(bare);
        boolean tableOfTheirOwn = definition.isPresent() || table && ResourceTables.isEventList(bare);
        if (selector.isEmpty() && listed.isEmpty() && !tableOfTheirOwn) {
            return withJsonType(response);
        }
        // One read of the body for all that a real API server does here: select, name the list's kind, render a table.
        JsonNode body;
        try {
            body = MAPPER.readTree(response.getBody().readUtf8());
        } catch (IOException e) {
            return ApiStatus.failure(500, "InternalError", "cannot read what the store answered for " + bare + ": " + e.getMessage());
        }
        selector.ifPresent(fields -> select(body, fields));
        if (listed.isPresent() && body instanceof ObjectNode list && "List".equals(list.path("kind").asText())) {
            // The CRUD store calls every list a List; typed clients such as kubectl's decode an EventList.
            list.put("kind", listed.get() + "List");
        }
        if (definition.isPresent()) {
            return ApiStatus.json(200, tables.table(definition.get(), body, Instant.now()).toString());
        }
        if (tableOfTheirOwn) {
            return ApiStatus.json(200, tables.events(body, Instant.now()).toString());
        }
        return ApiStatus.json(200, body.toString());
    }

    private static MockResponse withJsonType(MockResponse response) {
        if (response.header("Content-Type") == null) {
            response.setHeader("Content-Type", "application/json");
        }
        return response;
    }

    private static void select(JsonNode list, FieldSelector selector) {
        if (list.get("items") instanceof ArrayNode items) {
            for (int i = items.size() - 1; i >= 0; i--) {
                if (!selector.matches(items.get(i))) {
                    items.remove(i);
                }
            }
        }
    }

    @Override
    public void reset() {
        crud.reset();
    }

    @Override
    public void expectCustomResource(CustomResourceDefinitionContext definition) {
        crud.expectCustomResource(definition);
    }
}
