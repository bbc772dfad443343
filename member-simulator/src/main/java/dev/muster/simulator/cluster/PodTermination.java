package dev.muster.simulator.cluster;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

/**
 * Graceful pod deletion, as a real API server does it and fabric8's CRUD mode does not: a pod that runs on a node is
 * not removed by a DELETE but marked terminating ({@code deletionTimestamp}, {@code deletionGracePeriodSeconds}) for
 * its grace period (the request's, else the pod's {@code terminationGracePeriodSeconds}, else 30 seconds); its node's
 * kubelet removes it once its containers have stopped. A pod on no node, a finished pod, or a grace period of 0 is
 * removed at once. fabric8's store removes an object marked for deletion as soon as it has no finalizer, so a
 * terminating pod carries {@value #TERMINATING} until then: the one sign of the simulation a user can see on it.
 */
final class PodTermination {

    private static final Pattern POD = Pattern.compile("^/api/v1/namespaces/([^/?]+)/pods/([^/?]+)/?(\\?.*)?$");
    private static final Pattern GRACE_PARAMETER = Pattern.compile("(?:^|[?&])gracePeriodSeconds=(-?\\d+)");
    private static final long DEFAULT_GRACE_SECONDS = 30;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ATTEMPTS = 5;
    /** The finalizer that keeps a terminating pod in fabric8's store until its kubelet removes it. */
    static final String TERMINATING = "muster.dev/simulated-termination";

    private final Dispatcher store;
    private final StoredObjects objects;
    private final Clock clock;

    PodTermination(Dispatcher store, Clock clock) {
        this.store = store;
        this.objects = new StoredObjects(store);
        this.clock = clock;
    }

    static boolean isPodDeletion(RecordedRequest request) {
        return "DELETE".equals(request.getMethod()) && request.getPath() != null && POD.matcher(request.getPath()).matches();
    }

    MockResponse delete(RecordedRequest request) {
        Matcher path = POD.matcher(request.getPath());
        path.matches();
        String podPath = "/api/v1/namespaces/" + path.group(1) + "/pods/" + path.group(2);
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Optional<ObjectNode> pod = objects.read(podPath);
            if (pod.isEmpty()) {
                return store.dispatch(request);
            }
            long grace = requestedGrace(request).orElseGet(() -> pod.get().path("spec").path("terminationGracePeriodSeconds").asLong(DEFAULT_GRACE_SECONDS));
            String phase = pod.get().path("status").path("phase").asText("");
            boolean onNode = !pod.get().path("spec").path("nodeName").asText("").isEmpty();
            boolean terminating = pod.get().path("metadata").hasNonNull("deletionTimestamp");
            boolean now = grace <= 0 || !onNode || "Succeeded".equals(phase) || "Failed".equals(phase);
            if (now && !terminating) {
                return store.dispatch(request);
            }
            if (terminating && !now) {
                return ApiStatus.json(200, pod.get().toString());
            }
            MockResponse written = objects.patchIfUnchanged(podPath, pod.get(), now ? removal(pod.get()) : marking(pod.get(), grace));
            if (written != null) {
                return written;
            }
        }
        return ApiStatus.failure(409, "Conflict", "pod " + path.group(2) + " changed during each of " + ATTEMPTS + " attempts to delete it");
    }

    /** Marks the pod terminating for its grace period, held in the store by the finalizer. */
    private ArrayNode marking(ObjectNode pod, long grace) {
        ArrayNode finalizers = JsonNodeFactory.instance.arrayNode();
        pod.path("metadata").path("finalizers").forEach(finalizers::add);
        finalizers.add(TERMINATING);
        ArrayNode marking = JsonNodeFactory.instance.arrayNode();
        marking.addObject().put("op", "add").put("path", "/metadata/deletionTimestamp")
                .put("value", clock.instant().plusSeconds(grace).truncatedTo(ChronoUnit.SECONDS).toString());
        marking.addObject().put("op", "add").put("path", "/metadata/deletionGracePeriodSeconds").put("value", grace);
        marking.addObject().put("op", "add").put("path", "/metadata/finalizers").set("value", finalizers);
        return marking;
    }

    /** Takes the finalizer off a terminating pod: the store removes it, unless it has finalizers of its own. */
    private static ArrayNode removal(ObjectNode pod) {
        ArrayNode finalizers = JsonNodeFactory.instance.arrayNode();
        pod.path("metadata").path("finalizers").forEach(finalizer -> {
            if (!TERMINATING.equals(finalizer.asText())) {
                finalizers.add(finalizer);
            }
        });
        ArrayNode removal = JsonNodeFactory.instance.arrayNode();
        removal.addObject().put("op", "add").put("path", "/metadata/finalizers").set("value", finalizers);
        return removal;
    }

    /** The grace period the request asks for: its query parameter, else its DeleteOptions body. */
    private static Optional<Long> requestedGrace(RecordedRequest request) {
        Matcher parameter = GRACE_PARAMETER.matcher(request.getPath());
        if (parameter.find()) {
            return Optional.of(Long.parseLong(parameter.group(1)));
        }
        try {
            String body = request.getUtf8Body();
            JsonNode options = body == null || body.isBlank() ? null : JSON.readTree(body);
            return options != null && options.path("gracePeriodSeconds").isNumber() ? Optional.of(options.path("gracePeriodSeconds").asLong())
                    : Optional.empty();
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }
}
