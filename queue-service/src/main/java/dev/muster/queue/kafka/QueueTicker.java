package dev.muster.queue.kafka;

import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;

import dev.muster.model.event.ConfigEvent;
import dev.muster.model.event.EventSerde;
import dev.muster.model.event.QueueTick;
import dev.muster.model.event.Topics;
import dev.muster.queue.config.Channels;
import dev.muster.queue.config.QueueConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Sends a {@link QueueTick} to {@link Topics#FLEET_CONFIG} at a fixed interval, so that decisions only time
 * changes (an expired backoff, a job that starts to starve) are made on the same exactly-once path as the rest.
 */
@ApplicationScoped
public class QueueTicker {

    private final Emitter<byte[]> emitter;
    private final QueueConfig config;
    private final Clock clock = Clock.systemUTC();
    private ScheduledExecutorService timer;

    QueueTicker(@Channel(Channels.FLEET_INGRESS) @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> emitter, QueueConfig config) {
        this.emitter = emitter;
        this.config = config;
    }

    void start(@Observes StartupEvent startup) {
        long interval = config.reevaluationInterval().toMillis();
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "muster-queue-ticker");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    private void tick() {
        ConfigEvent tick = ConfigEvent.create("/muster/queue-service", clock.instant(), new QueueTick());
        emitter.send(KafkaRecord.of(Topics.FLEET_CONFIG, tick.key(), EventSerde.serialize(tick)));
    }
}
