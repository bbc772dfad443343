package dev.muster.simulator.cluster;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

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

    KubectlApiDispatcher(MemberApiDispatcher crud, List<CustomResourceDefinition> definitions) {
        this.crud = crud;
        this.discovery = new ApiDiscovery(definitions);
        this.openApi = new OpenApiDocuments(discovery);
        this.tables = new ResourceTables(definitions);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath() == null ? "" : request.getPath();
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        boolean read = "GET".equals(request.getMethod());
        if (read) {
            Optional<MockResponse> document = discovery.document(bare).or(() -> openApi.document(bare)).map(json -> json(200, json.toString()));
            if (document.isPresent()) {
                return document.get();
            }
        }
        String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
        Optional<FieldSelector> selector;
        try {
            selector = read && !query.contains("watch=") ? FieldSelector.inQuery(query) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return json(400, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"BadRequest\",\"code\":400,\"message\":\""
                    + e.getMessage().replace("\"", "'") + "\"}");
        }
        MockResponse response;
        if (selector.isPresent()) {
            // The CRUD store ignores field selectors: list everything, then keep what the selector selects.
            String rest = FieldSelector.withoutSelector(query);
            response = select(crud.dispatch(new RecordedRequest(request.getHttpVersion(), request.method(),
                    bare + (rest.isEmpty() ? "" : "?" + rest), request.getHeaders(), request.getBody())), selector.get());
        } else {
            response = crud.dispatch(request);
        }
        String accept = request.getHeader("Accept");
        boolean table = read && accept != null && accept.contains("as=Table") && !query.contains("watch=") && response.code() == 200;
        Optional<CustomResourceDefinition> definition = table ? tables.definitionFor(bare) : Optional.empty();
        if (table && (definition.isPresent() || ResourceTables.isEventList(bare))) {
            try {
                JsonNode body = MAPPER.readTree(response.getBody().readUtf8());
                return json(200, (definition.isPresent() ? tables.table(definition.get(), body, Instant.now())
                        : tables.events(body, Instant.now())).toString());
            } catch (IOException e) {
                return json(500, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":500,\"message\":\"cannot render a table: "
                        + e.getMessage().replace("\"", "'") + "\"}");
            }
        }
        Optional<String> listed = read && !query.contains("watch=") && response.code() == 200 ? discovery.kindListedAt(bare) : Optional.empty();
        if (listed.isPresent()) {
            return typedList(response, listed.get());
        }
        if (response.header("Content-Type") == null) {
            response.setHeader("Content-Type", "application/json");
        }
        return response;
    }

    /** The CRUD store calls every list a {@code List}; typed clients such as kubectl's decode an {@code EventList}. */
    private static MockResponse typedList(MockResponse list, String kind) {
        try {
            JsonNode body = MAPPER.readTree(list.getBody().readUtf8());
            if (body instanceof com.fasterxml.jackson.databind.node.ObjectNode object && "List".equals(object.path("kind").asText())) {
                object.put("kind", kind + "List");
            }
            return json(200, body.toString());
        } catch (IOException e) {
            return json(500, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":500,\"message\":\"cannot read the list\"}");
        }
    }

    private static MockResponse select(MockResponse list, FieldSelector selector) {
        if (list.code() != 200) {
            return list;
        }
        try {
            JsonNode body = MAPPER.readTree(list.getBody().readUtf8());
            if (body.has("items")) {
                var items = (com.fasterxml.jackson.databind.node.ArrayNode) body.get("items");
                for (int i = items.size() - 1; i >= 0; i--) {
                    if (!selector.matches(items.get(i))) {
                        items.remove(i);
                    }
                }
            }
            return json(200, body.toString());
        } catch (IOException e) {
            return json(500, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":500,\"message\":\"cannot apply the field selector\"}");
        }
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
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
