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
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.member.MemberJobRow;
import dev.muster.model.member.MemberPodRow;

/** Reads the views Muster's services serve: status sync's members ({@code /api/v1/members/...}), the queue service's quota. */
final class ViewsClient {

    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final URI base;
    private final String service;
    private final String variable;
    private final String flag;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private ViewsClient(URI base, String service, String variable, String flag) {
        this.base = base;
        this.service = service;
        this.variable = variable;
        this.flag = flag;
    }

    static ViewsClient statusSync(String url) {
        return new ViewsClient(URI.create(url), "status sync", "MUSTER_STATUS_URL", "--status-url");
    }

    static ViewsClient queueService(String url) {
        return new ViewsClient(URI.create(url), "queue service", "MUSTER_QUEUE_URL", "--queue-url");
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

    PyTorchJob job(String cluster, String namespace, String name) throws CommandFailedException {
        return Manifests.read(get("/api/v1/members/" + encode(cluster) + "/pytorchjobs/" + encode(namespace) + "/" + encode(name)), PyTorchJob.class);
    }

    private JsonNode get(String path) throws CommandFailedException {
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10)).header("Accept", "application/json").build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new CommandFailedException("cannot reach Muster's " + service + " at " + base + " (is Muster running? set "
                    + variable + " or " + flag + ")");
        } catch (IOException e) {
            throw new CommandFailedException("reading " + base.resolve(path) + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailedException("interrupted");
        }
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new CommandFailedException(base.resolve(path) + " answered " + response.statusCode() + " with something that is not JSON");
        }
        if (response.statusCode() != 200) {
            throw new CommandFailedException(body.path("error").asText(service + " answered " + response.statusCode() + " for " + path));
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
