package dev.muster.simulator.cluster;

import java.io.IOException;
import java.nio.file.Path;

import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.client.KubernetesClient;

/** A test's fleet API server, a client of it and the real kubectl pointed at it; closing stops the server. */
record FleetSession(FleetApiServer server, KubernetesClient fleet, Kubectl kubectl) implements AutoCloseable {

    /** Starts the server, writing its kubeconfig into the folder, and connects to it. */
    static FleetSession open(Path home) throws IOException {
        FleetApiServer server = FleetApiServer.start(home);
        try {
            return new FleetSession(server, server.connect(), new Kubectl(server.kubeconfig()));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    @Override
    public void close() {
        fleet.close();
        server.close();
    }
}
