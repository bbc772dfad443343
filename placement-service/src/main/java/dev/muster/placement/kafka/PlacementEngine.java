package dev.muster.placement.kafka;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

import dev.muster.model.event.EventSerde;
import dev.muster.model.event.JobEvent;
import dev.muster.model.event.MusterEvent;
import dev.muster.model.event.Topics;
import dev.muster.placement.config.PlacementConfig;
import dev.muster.placement.core.binding.Decisions;
import dev.muster.placement.core.binding.MemberCommand;
import dev.muster.placement.core.binding.MemberResult;
import dev.muster.placement.core.gang.GangPlacer;
import dev.muster.placement.kubernetes.MemberWriter;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Runs the placement core for the service: one {@link GangPlacer} fed, one call at a time, by consumed events,
 * by the results of member writes and by clock ticks. Decisions on consumed events go out with them in the
 * input transaction; the writes they ask for run on their own threads, and what follows from their results
 * and from ticks is published on {@link Topics#PLACEMENTS} directly, with ids derived from the admission so
 * that a repeat is recognisable.
 */
@ApplicationScoped
public class PlacementEngine {

    private static final Logger LOG = Logger.getLogger(PlacementEngine.class);

    private final GangPlacer placer;
    private final MemberWriter writer;
    private final PlacementConfig config;
    private final Emitter<byte[]> results;
    private final ExecutorService writes = Executors.newFixedThreadPool(2, daemon("member-writes"));
    private ScheduledExecutorService ticker;

    PlacementEngine(PlacementConfig config, @Channel("placement-results") @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER) Emitter<byte[]> results) {
        this.config = config;
        this.placer = new GangPlacer(config.settings(), Clock.systemUTC());
        this.writer = new MemberWriter(config);
        this.results = results;
    }

    void start(@Observes StartupEvent startup) {
        ticker = Executors.newSingleThreadScheduledExecutor(daemon("placement-ticker"));
        long interval = config.tickInterval().toMillis();
        ticker.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent shutdown) {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        writes.shutdownNow();
        writer.close();
    }

    /** The core's answer to one consumed event; the member writes it asks for are started. */
    public List<JobEvent> decide(MusterEvent event) {
        Decisions decisions;
        synchronized (placer) {
            decisions = placer.handle(event);
        }
        run(decisions.commands());
        return decisions.events();
    }

    private void tick() {
        try {
            Decisions decisions;
            synchronized (placer) {
                decisions = placer.tick();
            }
            publish(decisions);
        } catch (RuntimeException e) {
            LOG.warn("placement tick failed; the next one tries again", e);
        }
    }

    private void run(List<MemberCommand> commands) {
        for (MemberCommand command : commands) {
            writes.execute(() -> writer.execute(command).ifPresent(this::result));
        }
    }

    private void result(MemberResult result) {
        Decisions decisions;
        synchronized (placer) {
            decisions = placer.result(result);
        }
        publish(decisions);
    }

    private void publish(Decisions decisions) {
        for (JobEvent event : decisions.events()) {
            LOG.info(event.describe());
            results.send(KafkaRecord.of(Topics.PLACEMENTS, event.key(), EventSerde.serialize(event)));
        }
        run(decisions.commands());
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
