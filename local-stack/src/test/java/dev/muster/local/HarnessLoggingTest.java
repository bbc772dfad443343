package dev.muster.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.http.HttpLoggingInterceptor;

/** A harness JVM logs warnings, and no library does trace-level work or prints per-request lines. */
class HarnessLoggingTest {

    @Test
    void librariesAndSimulatedClustersLogWarningsOnly() {
        HarnessLogging.install();

        // fabric8 adds its body-copying HTTP logging interceptor to every client it builds while this says true.
        Logger fabric8 = LoggerFactory.getLogger(HttpLoggingInterceptor.class);
        assertThat(fabric8.isTraceEnabled()).isFalse();
        assertThat(fabric8.isInfoEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").isWarnEnabled()).isTrue();

        System.Logger simulator = System.getLogger("dev.muster.simulator.scheduling.SchedulerController");
        assertThat(simulator.isLoggable(System.Logger.Level.INFO)).isFalse();
        assertThat(simulator.isLoggable(System.Logger.Level.WARNING)).isTrue();
        assertThat(java.util.logging.Logger.getLogger("io.fabric8.mockwebserver.MockWebServer").isLoggable(java.util.logging.Level.INFO)).isFalse();
    }
}
