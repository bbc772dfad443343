package dev.muster.kubectl;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.member.MemberPodRow;

/** Reads the views Muster's services serve: status sync's members ({@code /api/v1/members/...}), the queue service's quota. */
final class ViewsClient {

    private static final ObjectMapper JSON = dev.muster.model.json.MusterJson.json();

    private final URI base;
    private final String service;
    private final String variable;
    private final String flag;
    private final java.util.Optional<String> token;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private ViewsClient(URI base, String service, String variable, String flag, java.util.Optional<String> token) {
        this.base = base;
        this.service = service;
        this.variable = variable;
        this.flag = flag;
        this.token = token;
    }

    /** @param token the bearer token the views are asked with (the kubeconfig user's), if any */
    static ViewsClient statusSync(String url, java.util.Optional<String> token) {
        return new ViewsClient(URI.create(url), "status sync", "MUSTER_STATUS_URL", "--status-url", token);
    }

    static ViewsClient placement(String url, java.util.Optional<String> token) {
        return new ViewsClient(URI.create(url), "placement service", "MUSTER_PLACEMENT_URL", "--placement-url", token);
    }

    static ViewsClient queueService(String url, java.util.Optional<String> token) {
        return new ViewsClient(URI.create(url), "queue service", "MUSTER_QUEUE_URL", "--queue-url", token);
    }

    List<MemberJobRow> jobs(String namespace) throws CommandFailedException {
        return JSON.convertValue(get("/api/v1/members/pytorchjobs" + namespaceQuery(namespace)), new TypeReference<List<MemberJobRow>>() { });
    }

    List<MemberPodRow> pods(String namespace) throws CommandFailedException {
        return JSON.convertValue(get("/api/v1/members/pods" + namespaceQuery(namespace)), new TypeReference<List<MemberPodRow>>() { });
    }

    List<dev.muster.model.quota.QuotaUsageRow> quotaUsage() throws CommandFailedException {
        return JSON.convertValue(get("/api/v1/queues"), new TypeReference<List<dev.muster.model.quota.QuotaUsageRow>>() { });
    }

    /** The tree in force and the refused changes of configuration. */
    dev.muster.model.quota.ConfigInForce configInForce() throws CommandFailedException {
        return JSON.convertValue(get("/api/v1/config"), dev.muster.model.quota.ConfigInForce.class);
    }

    /** Where the queue service has the job; empty when it does not hold it. */
    java.util.Optional<dev.muster.model.queue.JobQueueView> queued(String namespace, String name) throws CommandFailedException {
        JsonNode body = send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs/" + encode(namespace) + "/" + encode(name))).GET(), true);
        return body == null ? java.util.Optional.empty() : java.util.Optional.of(JSON.convertValue(body, dev.muster.model.queue.JobQueueView.class));
    }

    /** Every member cluster for the job if it were placed now. */
    List<dev.muster.model.placement.ClusterFitRow> fit(PyTorchJob job, dev.muster.model.policy.PropagationPolicy policy)
            throws CommandFailedException {
        String body = "{\"job\":" + Manifests.toJson(job) + ",\"policy\":" + (policy == null ? "null" : Manifests.toJson(policy)) + "}";
        return JSON.convertValue(send(HttpRequest.newBuilder(base.resolve("/api/v1/fit")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), false), new TypeReference<List<dev.muster.model.placement.ClusterFitRow>>() { });
    }

    PyTorchJob job(String cluster, String namespace, String name) throws CommandFailedException {
        return Manifests.read(get("/api/v1/members/" + encode(cluster) + "/pytorchjobs/" + encode(namespace) + "/" + encode(name)), PyTorchJob.class);
    }

    private JsonNode get(String path) throws CommandFailedException {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET(), false);
    }

    /** The answer's JSON; null for a 404 when {@code notFoundIsEmpty}. */
    private JsonNode send(HttpRequest.Builder builder, boolean notFoundIsEmpty) throws CommandFailedException {
        token.ifPresent(bearer -> builder.header("Authorization", "Bearer " + bearer));
        HttpRequest request = builder.timeout(Duration.ofSeconds(10)).header("Accept", "application/json").build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new CommandFailedException("cannot reach Muster's " + service + " at " + base + " (is Muster running? set "
                    + variable + " or " + flag + ")");
        } catch (IOException e) {
            throw new CommandFailedException("reading " + request.uri() + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted");
        }
        if (response.statusCode() == 404 && notFoundIsEmpty) {
            return null;
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new CommandFailedException(request.uri() + " answered " + response.statusCode() + " with something that is not JSON");
        }
        if (response.statusCode() != 200) {
            throw new CommandFailedException(body.path("error").asText(service + " answered " + response.statusCode() + " for " + request.uri().getPath()));
        }
        return body;
    }

    private static String namespaceQuery(String namespace) {
        return namespace == null ? "" : "?namespace=" + encode(namespace);
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
