package dev.muster.fleetclient.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.ServerSocket;
import java.net.Socket;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** A request that gets no answer fails as fabric8's operations fail, so that the writers retry it. */
class RawRequestsTest {

    @Test
    void aConnectionClosedBeforeTheAnswerIsAClientFailureWithoutACodeNotAnotherRuntimeException() throws Exception {
        try (ServerSocket server = new ServerSocket(0)) {
            Thread closer = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket accepted = server.accept()) {
                        accepted.getInputStream().read();
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            closer.setDaemon(true);
            closer.start();
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
                    .withMasterUrl("http://127.0.0.1:" + server.getLocalPort()).withRequestRetryBackoffLimit(0).build()).build()) {
                KubernetesClientException failure = catchThrowableOfType(() -> RawRequests.send(client,
                        RawRequests.request(client, RawRequests.url(client, "api", "v1", "pods")).build()), KubernetesClientException.class);

                assertThat(failure).as("whatever the HTTP client threw").isNotNull().hasMessageContaining("/api/v1/pods");
                assertThat(failure.getCode()).as("no answer, no code: retried").isLessThanOrEqualTo(0);
            }
        }
    }
}
