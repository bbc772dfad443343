package dev.muster.fleetclient.watch;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
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

    /**
     * Lists, from the API server, what a watch watches (same kind, same scope): what the watch holds is compared with it
     * every {@code muster.watch.audit-interval}. Throws when the API server does not answer; the audit then waits for the
     * next round.
     */
    @FunctionalInterface
    public interface Lister {
        Collection<? extends HasMetadata> list();
    }

    private record Audited(SupervisedInformer<?> informer, Lister lister) {
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
    /** Lists can be slow (a member far away, a large fleet): they run apart from the restarts, which must stay punctual. */
    private final ScheduledExecutorService audits = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "watch-audits");
        thread.setDaemon(true);
        return thread;
    });
    private final List<SupervisedInformer<?>> supervised = new CopyOnWriteArrayList<>();
    private final List<Audited> audited = new CopyOnWriteArrayList<>();

    Watches(WatchConfig config) {
        this.settings = WatchSettings.of(config);
        long every = Math.max(1000, settings.reconnectGrace().toMillis());
        restarts.scheduleWithFixedDelay(this::restartStalled, every, every, TimeUnit.MILLISECONDS);
        long audit = config.auditInterval().toMillis();
        if (audit > 0) {
            audits.scheduleWithFixedDelay(this::audit, audit, audit, TimeUnit.MILLISECONDS);
        }
    }

    private void audit() {
        audited.removeIf(watch -> watch.informer().isClosed());
        for (Audited watch : audited) {
            try {
                watch.informer().restartIfDeaf(watch.lister().list());
            } catch (RuntimeException e) {
                // The API server away: the watch's own retries and readiness cover that; the next round compares again.
                LOG.debugf("%s: comparing the watch with a list failed (%s)", watch.informer().name(), e.toString());
            }
        }
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

    /** A supervised informer, started and audited against {@code lister}; it counts for readiness until closed. */
    public <T extends HasMetadata> SupervisedInformer<T> start(String name, Supplier<SharedIndexInformer<T>> factory, Supplier<ItemStore<T>> stores,
                                                               ResourceEventHandler<? super T> handler, Lister lister) {
        SupervisedInformer<T> informer = supervise(name, factory, stores, handler, lister);
        sources.add(() -> List.of(informer.status()));
        return informer.start();
    }

    /**
     * A supervised informer, audited against {@code lister}, not started and not counted for readiness: for a
     * {@link Source} that answers for it.
     */
    public <T extends HasMetadata> SupervisedInformer<T> supervise(String name, Supplier<SharedIndexInformer<T>> factory,
                                                                   Supplier<ItemStore<T>> stores, ResourceEventHandler<? super T> handler,
                                                                   Lister lister) {
        Objects.requireNonNull(lister, "lister");
        SupervisedInformer<T> informer = new SupervisedInformer<>(name, factory, stores, handler, restarts, settings, clock);
        supervised.removeIf(SupervisedInformer::isClosed);
        supervised.add(informer);
        audited.add(new Audited(informer, lister));
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
        audited.clear();
    }

    @PreDestroy
    void stop() {
        restarts.shutdownNow();
        audits.shutdownNow();
    }
}
