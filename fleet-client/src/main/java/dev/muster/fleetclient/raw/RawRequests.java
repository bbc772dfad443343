package dev.muster.fleetclient.raw;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.URLUtils;

/**
 * Requests whose answers Muster reads as a stream, taking only the fields it uses, where fabric8's operations would
 * bind the whole object (or list) into its model. They go through the client's own HTTP client, so they carry its
 * credentials, user agent and retries, and fail as fabric8's operations do: a {@link KubernetesClientException} with
 * the server's code when refused, with none when not answered.
 */
public final class RawRequests {

    /** How much longer than the client's request timeout a request is waited for before it is given up. */
    private static final long MARGIN_MILLIS = 5_000;

    private RawRequests() {
    }

    /** The API server's URL of this path, e.g. {@code apis, kubeflow.org, v1, namespaces, default, pytorchjobs}. */
    public static String url(KubernetesClient client, String... path) {
        String[] parts = new String[path.length + 1];
        parts[0] = client.getMasterUrl().toString();
        System.arraycopy(path, 0, parts, 1, path.length);
        return URLUtils.join(parts);
    }

    /** A request to build on, with the client's request timeout. */
    public static HttpRequest.Builder request(KubernetesClient client, String url) {
        HttpRequest.Builder builder = client.getHttpClient().newHttpRequestBuilder().uri(url);
        long timeout = client.getConfiguration().getRequestTimeout();
        if (timeout > 0) {
            builder.timeout(timeout, TimeUnit.MILLISECONDS);
        }
        return builder;
    }

    /** Sends the request; the body of a successful answer. */
    public static byte[] send(KubernetesClient client, HttpRequest request) {
        long timeout = client.getConfiguration().getRequestTimeout();
        HttpClient http = client.getHttpClient();
        HttpResponse<byte[]> response;
        try {
            response = timeout > 0 ? http.sendAsync(request, byte[].class).get(timeout + MARGIN_MILLIS, TimeUnit.MILLISECONDS)
                    : http.sendAsync(request, byte[].class).get();
        } catch (ExecutionException e) {
            throw unanswered(request, e.getCause() == null ? e : e.getCause());
        } catch (TimeoutException e) {
            throw unanswered(request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unanswered(request, e);
        }
        if (!response.isSuccessful()) {
            throw refused(request, response);
        }
        return response.body();
    }

    /**
     * A request not answered, whatever the HTTP client threw (an I/O error, or a runtime one such as Vert.x's closed
     * connection): a {@link KubernetesClientException} without a code, as fabric8's operations throw, which writers retry.
     */
    private static KubernetesClientException unanswered(HttpRequest request, Throwable cause) {
        if (cause instanceof KubernetesClientException failure) {
            return failure;
        }
        return new KubernetesClientException(request.method() + " " + request.uri() + " not answered: " + cause, cause);
    }

    /** A failure to read an answer, said as fabric8 says one it cannot read. */
    public static KubernetesClientException unreadable(HttpRequest request, Exception cause) {
        return new KubernetesClientException("the answer to " + request.method() + " " + request.uri() + " cannot be read: "
                + MusterJson.firstLine(cause.getMessage()), cause);
    }

    private static KubernetesClientException refused(HttpRequest request, HttpResponse<byte[]> response) {
        Status status = null;
        try {
            status = MusterJson.json().readValue(response.body(), Status.class);
        } catch (IOException | RuntimeException e) {
            // Not a Status: the code alone says it.
        }
        String message = status != null && status.getMessage() != null ? status.getMessage() : "HTTP " + response.code();
        return new KubernetesClientException(request.method() + " " + request.uri() + " refused: " + message, response.code(), status);
    }
}
