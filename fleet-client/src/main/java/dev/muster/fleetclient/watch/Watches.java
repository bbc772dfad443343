package dev.muster.fleetclient.watch;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.quarkus.runtime.ShutdownEvent;

/**
 * The Kubernetes watches a service depends on: it starts them supervised ({@link SupervisedInformer}) and says,
 * for readiness, which of them do not run. A source of watches that come and go (one set per member cluster)
 * registers itself and answers for its own.
 */
@ApplicationScoped
public class Watches {

    /** A set of watches that answers for itself: those it lists are the ones that must run now. */
    @FunctionalInterface
    public interface Source {
        List<WatchStatus> statuses();
    }

    private static final Logger LOG = Logger.getLogger(Watches.class);

    private final WatchSettings settings;
    private final Clock clock = Clock.systemUTC();
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "watch-restarts");
        thread.setDaemon(true);
        return thread;
    });
    private final List<Source> sources = new CopyOnWriteArrayList<>();
    private final List<SupervisedInformer<?>> supervised = new CopyOnWriteArrayList<>();

    Watches(WatchConfig config) {
        this.settings = WatchSettings.of(config);
        long every = Math.max(1000, settings.reconnectGrace().toMillis());
        restarts.scheduleWithFixedDelay(this::restartStalled, every, every, TimeUnit.MILLISECONDS);
    }

    private void restartStalled() {
        for (SupervisedInformer<?> informer : supervised) {
            try {
                informer.restartIfStalled();
            } catch (RuntimeException e) {
                // One informer's trouble must not end the checks of the others (a scheduled task that throws runs no more).
                LOG.warnf("%s: checking whether the watch is stuck failed: %s", informer.name(), e.toString());
            }
        }
    }

    /** A supervised informer, started; it counts for readiness until closed. */
    public <T extends HasMetadata> SupervisedInformer<T> start(String name, Supplier<SharedIndexInformer<T>> factory, Supplier<ItemStore<T>> stores,
                                                               ResourceEventHandler<? super T> handler) {
        SupervisedInformer<T> informer = supervise(name, factory, stores, handler);
        sources.add(() -> List.of(informer.status()));
        return informer.start();
    }

    /** A supervised informer, not started and not counted for readiness: for a {@link Source} that answers for it. */
    public <T extends HasMetadata> SupervisedInformer<T> supervise(String name, Supplier<SharedIndexInformer<T>> factory,
                                                                   Supplier<ItemStore<T>> stores, ResourceEventHandler<? super T> handler) {
        SupervisedInformer<T> informer = new SupervisedInformer<>(name, factory, stores, handler, restarts, settings, clock);
        supervised.removeIf(SupervisedInformer::isClosed);
        supervised.add(informer);
        return informer;
    }

    public void register(Source source) {
        sources.add(source);
    }

    /** Every watch that must run now, and whether it does. */
    public List<WatchStatus> statuses() {
        List<WatchStatus> all = new ArrayList<>();
        sources.forEach(source -> all.addAll(source.statuses()));
        return all;
    }

    /**
     * Closes every watch before the Kubernetes clients close under them: an informer whose client closes stops, and
     * would be restarted and reported as a watch that stopped, on every shutdown.
     */
    void closeWatches(@Observes ShutdownEvent shutdown) {
        supervised.forEach(SupervisedInformer::close);
        supervised.clear();
    }

    @PreDestroy
    void stop() {
        restarts.shutdownNow();
    }
}
