package dev.muster.statussync.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;

/** Which failed fleet writes are tried again: those the fleet API did not answer or could not serve then. */
class FleetWriteFailuresTest {

    @Test
    void aFleetApiThatRefusesConnectionsIsPassingAndTheWriteIsTriedAgain() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort).withRequestRetryBackoffLimit(0).build();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            KubernetesClientException refused = catchThrowableOfType(KubernetesClientException.class,
                    () -> client.namespaces().withName("kube-queue").get());

            assertThat(MirrorEngine.passing(refused)).as("connection refused (code %d)", refused.getCode()).isTrue();
        }
    }

    @Test
    void anAnswerOtherThanOverloadOrAnInternalErrorIsFinal() {
        assertThat(MirrorEngine.passing(new KubernetesClientException(new StatusBuilder().withCode(503).build()))).isTrue();
        assertThat(MirrorEngine.passing(new KubernetesClientException(new StatusBuilder().withCode(429).build()))).isTrue();
        assertThat(MirrorEngine.passing(new KubernetesClientException(new StatusBuilder().withCode(422).build()))).isFalse();
        assertThat(MirrorEngine.passing(new KubernetesClientException(new StatusBuilder().withCode(403).build()))).isFalse();
        assertThat(MirrorEngine.passing(new IllegalStateException("a bug"))).isFalse();
    }
}
