package dev.muster.simulator.cluster;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.testing.kubectl.Kubectl;
import io.fabric8.kubernetes.client.KubernetesClient;

/** Tests of one fleet API server shared by a class's tests, with a client of it and the real kubectl pointed at it. */
abstract class FleetApiServerTests {

    static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    static Path home;
    static FleetSession session;
    static FleetApiServer server;
    static KubernetesClient fleet;
    static Kubectl kubectl;

    @BeforeAll
    static void openSession() throws Exception {
        session = FleetSession.open(home);
        server = session.server();
        fleet = session.fleet();
        kubectl = session.kubectl();
    }

    @AfterAll
    static void closeSession() {
        if (session != null) {
            session.close();
        }
    }
}
