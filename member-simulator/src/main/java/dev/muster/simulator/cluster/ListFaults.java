package dev.muster.simulator.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * Lists of a resource that fail, as an API server under load answers them ({@code 503}, "the server is currently unable to
 * handle the request"): what made informers stop for good, and what a watcher of a member must survive. Watches and
 * reads of one object are not affected.
 */
public final class ListFaults {

    private final Map<String, AtomicInteger> remaining = new ConcurrentHashMap<>();

    /** The next {@code count} lists of the resource (its plural, e.g. {@code pytorchjobs}) fail. */
    public void failNext(String resource, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, got " + count);
        }
        remaining.put(resource, new AtomicInteger(count));
    }

    /** Lists answer again. */
    public void heal() {
        remaining.clear();
    }

    /** The failure answer for this request, if it is a list the fault applies to; null otherwise. */
    MockResponse failure(RecordedRequest request) {
        if (remaining.isEmpty() || !"GET".equals(request.getMethod()) || request.getPath() == null) {
            return null;
        }
        String path = request.getPath();
        int query = path.indexOf('?');
        if (query >= 0 && path.indexOf("watch=", query) >= 0) {
            return null;
        }
        String bare = query < 0 ? path : path.substring(0, query);
        String resource = bare.substring(bare.lastIndexOf('/') + 1);
        AtomicInteger left = remaining.get(resource);
        if (left == null || left.getAndDecrement() <= 0) {
            remaining.remove(resource, left);
            return null;
        }
        return ApiStatus.failure(503, "ServiceUnavailable", "the server is currently unable to handle the request (get " + resource + ")");
    }

    /** The resources whose lists fail now, with how many more will. */
    public Map<String, Integer> active() {
        Map<String, Integer> active = new java.util.TreeMap<>();
        remaining.forEach((resource, left) -> {
            if (left.get() > 0) {
                active.put(resource, left.get());
            }
        });
        return active;
    }
}
