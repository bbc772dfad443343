package dev.muster.simulator.cluster;

import java.time.Clock;
import java.util.Map;
import java.util.Queue;
import java.util.Set;

import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.CustomResourceAware;
import io.fabric8.kubernetes.client.server.mock.Resetable;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import io.fabric8.zjsonpatch.JsonPatchException;

/**
 * What answers a simulated member's API requests: fabric8's mock server in CRUD mode (recorded expectations
 * such as {@code /version} first, as its mixed dispatcher does), with five differences that make it behave like
 * a real member. API groups the member does not serve answer 404 (CRUD mode would store any resource of any
 * group, so a member without koordinator would seem to accept reservations); objects are found by name
 * through an index (see {@link IndexedCrudDispatcher}), so that a cluster with ten thousand pods still starts
 * in seconds; pods are bound to nodes through the binding subresource ({@link PodBindings}) and end gracefully
 * when deleted ({@link PodTermination}); and a JSON patch
 * that cannot be applied (its {@code test} fails) is refused with 422, not left unanswered.
 */
final class MemberApiDispatcher extends Dispatcher implements Resetable, CustomResourceAware {

    private final Map<ServerRequest, Queue<ServerResponse>> responses;
    private final MockDispatcher expectations;
    private final IndexedCrudDispatcher crud = new IndexedCrudDispatcher();
    private final PodBindings bindings = new PodBindings(crud, Clock.systemUTC());
    private final PodTermination termination = new PodTermination(crud, Clock.systemUTC());
    private final Set<String> unservedGroups;
    private final ListFaults listFaults = new ListFaults();

    MemberApiDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses, Set<String> unservedGroups) {
        this.responses = responses;
        this.expectations = new MockDispatcher(responses);
        this.unservedGroups = Set.copyOf(unservedGroups);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath() == null ? "" : request.getPath();
        for (String group : unservedGroups) {
            if (path.startsWith("/apis/" + group + "/") || path.equals("/apis/" + group) || path.startsWith("/apis/" + group + "?")) {
                return ApiStatus.failure(404, "NotFound", "the server could not find the requested resource");
            }
        }
        MockResponse failed = listFaults.failure(request);
        if (failed != null) {
            return failed;
        }
        Queue<ServerResponse> expected = responses.get(new SimpleRequest(HttpMethod.valueOf(request.getMethod()), path));
        if (expected != null && !expected.isEmpty()) {
            return expectations.dispatch(request);
        }
        if (PodBindings.isBinding(request)) {
            return bindings.bind(request);
        }
        if (PodTermination.isPodDeletion(request)) {
            return termination.delete(request);
        }
        try {
            return crud.dispatch(request);
        } catch (JsonPatchException e) {
            // fabric8's CRUD dispatcher lets a JSON patch it cannot apply (a failed test, a missing path) escape, and
            // the client waits for an answer that never comes; an API server refuses the patch as invalid.
            return ApiStatus.failure(422, "Invalid", "the JSON patch cannot be applied: " + e.getMessage());
        }
    }

    /** The lists this member's API fails on purpose. */
    ListFaults listFaults() {
        return listFaults;
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
