package dev.muster.simulator.cluster;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Quiets fabric8's mock API server, which logs every request it answers at INFO through java.util.logging: tens
 * of lines per simulated job, and under load a good share of the JVM's time spent formatting and printing them.
 * Its warnings still show.
 */
final class MockServerLog {

    /** Held so the level set on it is not lost when the logger is collected. */
    private static final Logger MOCK_SERVER = Logger.getLogger("io.fabric8.mockwebserver");

    private MockServerLog() {
    }

    static void quiet() {
        MOCK_SERVER.setLevel(Level.WARNING);
    }
}
