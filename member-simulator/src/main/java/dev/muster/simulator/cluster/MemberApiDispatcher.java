package dev.muster.simulator.cluster;

import java.util.Map;
import java.util.Queue;
import java.util.Set;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * The mock API server's CRUD dispatcher, except that API groups the member does not serve answer 404 as on a
 * real cluster: fabric8's CRUD mode would otherwise store any resource of any group, so a member without
 * koordinator would seem to accept reservations.
 */
final class MemberApiDispatcher extends KubernetesMixedDispatcher {

    private final Set<String> unservedGroups;

    MemberApiDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses, Set<String> unservedGroups) {
        super(responses);
        this.unservedGroups = Set.copyOf(unservedGroups);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath() == null ? "" : request.getPath();
        for (String group : unservedGroups) {
            if (path.startsWith("/apis/" + group + "/") || path.equals("/apis/" + group) || path.startsWith("/apis/" + group + "?")) {
                return new MockResponse().setResponseCode(404).setHeader("Content-Type", "application/json").setBody("""
                        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",\
                        "message":"the server could not find the requested resource","reason":"NotFound","code":404}""");
            }
        }
        return super.dispatch(request);
    }
}
