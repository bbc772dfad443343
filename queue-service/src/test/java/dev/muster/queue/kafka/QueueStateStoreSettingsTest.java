package dev.muster.queue.kafka;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.muster.queue.config.QueueConfig;

class QueueStateStoreSettingsTest {

    /** A negative refresh stops the queue at its start with an error that names the property an operator set. */
    @Test
    void aNegativeReasonRefreshIsRefusedNamingTheProperty() {
        QueueConfig config = (QueueConfig) Proxy.newProxyInstance(QueueConfig.class.getClassLoader(), new Class<?>[] {QueueConfig.class},
                (proxy, method, arguments) -> switch (method.getName()) {
                    case "reasonRefresh" -> Duration.ofSeconds(-5);
                    default -> throw new UnsupportedOperationException(method.getName());
                });

        assertThatThrownBy(() -> new QueueStateStore(config, null, Map.of("bootstrap.servers", "localhost:9092")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("muster.queue.reason-refresh must not be negative, got PT-5S");
    }
}
