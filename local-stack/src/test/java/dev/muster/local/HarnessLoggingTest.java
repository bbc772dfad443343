package dev.muster.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.http.HttpLoggingInterceptor;

/** The harness JVM logs libraries' warnings, and no library does trace-level work for a log nobody reads. */
class HarnessLoggingTest {

    @Test
    void librariesLogWarningsButDoNoTraceWork() {
        HarnessLogging.install();

        // fabric8 adds its body-copying HTTP logging interceptor to every client it builds while this says true.
        Logger fabric8 = LoggerFactory.getLogger(HttpLoggingInterceptor.class);
        assertThat(fabric8.isTraceEnabled()).isFalse();
        assertThat(fabric8.isInfoEnabled()).isFalse();
        assertThat(LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient").isWarnEnabled()).isTrue();
    }
}
