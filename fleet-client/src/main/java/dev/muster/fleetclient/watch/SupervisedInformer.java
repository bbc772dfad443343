package dev.muster.fleetclient.watch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

/**
 * An informer that keeps watching whatever happens: fabric8's informer stops for good when its first list times
 * out or when it cannot read an event, and says nothing to anyone. This one retries failed lists and watches
 * itself, and when the informer stops all the same, starts a new one after a capped, doubling backoff, seeded
 * with what the old one had, so that objects changed or deleted meanwhile are reported as changed or deleted.
 * Its {@link #status()} says whether it is watching now, for readiness.
 * <p>
 * No object can stop it when it reads objects in a form that cannot fail ({@code GenericKubernetesResource}) and
 * its handler validates them one by one; a typed informer of a kind whose objects the API server validates (nodes,
 * pods) is safe too. An informer that cannot read an event even so is restarted, and reported not watching.
 *
 * @param <T> the kind watched
 */
public final class SupervisedInformer<T extends HasMetadata> implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SupervisedInformer.class);

    private final String name;
    private final Supplier<SharedIndexInformer<T>> factory;
    private final Supplier<ItemStore<T>> stores;
    private final ResourceEventHandler<? super T> handler;
    private final ScheduledExecutorService scheduler;
    private final WatchSettings settings;
    private final Clock clock;
    private volatile SharedIndexInformer<T> current;
    private volatile boolean closed;
    private volatile String lastProblem;
    private volatile Instant notWatchingSince;
    /** What differed between the informer and the API server at the last {@link #restartIfDeaf} check. */
    private volatile Set<String> lastDrift = Set.of();
    /** When the current informer started, or was last seen watching: the start of a stall, if it never watches again. */
    private volatile Instant startedAt;
    private int restarts;
    /** Restarts since the informer last listed everything: what the backoff doubles with, so one bad hour is not paid for ever after. */
    private int failuresInARow;

    /**
     * @param name      what is watched, for logs and readiness, e.g. {@code fleet pytorchjobs} or {@code gpu-a pods}
     * @param factory   a new, not yet started informer each time it is called ({@code runnableInformer})
     * @param stores    a new, empty item store each time it is called, or null for fabric8's own
     * @param scheduler where restarts are scheduled
     */
    public SupervisedInformer(String name, Supplier<SharedIndexInformer<T>> factory, Supplier<ItemStore<T>> stores,
                              ResourceEventHandler<? super T> handler, ScheduledExecutorService scheduler, WatchSettings settings, Clock clock) {
        this.name = Objects.requireNonNull(name, "name");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.stores = stores;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.notWatchingSince = clock.instant();
    }

    /** Starts watching; does not wait for the first list, which an unreachable API server may never answer. */
    public SupervisedInformer<T> start() {
        run(null);
        return this;
    }

    private synchronized void run(SharedIndexInformer<T> previous) {
        if (closed) {
            return;
        }
        SharedIndexInformer<T> informer;
        try {
            informer = factory.get();
            if (stores != null) {
                informer.itemStore(stores.get());
            }
            if (previous != null) {
                // What the stopped informer knew: the first list then reports changes and deletions since, not only additions.
                informer.initialState(previous.getStore().list().stream());
            }
            // A list or watch that failed is tried again (fabric8 backs off); one that cannot be read would fail the same way.
            informer.exceptionHandler((started, failure) -> {
                lastProblem = describe(failure);
                return !ExceptionHandler.isDeserializationException(failure);
            });
            informer.addEventHandler(handler);
        } catch (RuntimeException e) {
            lastProblem = describe(e);
            scheduleRestart(previous, e);
            return;
        }
        current = informer;
        startedAt = clock.instant();
        informer.stopped().whenComplete((done, failure) -> stopped(informer, failure));
        informer.start().whenComplete((synced, failure) -> {
            if (failure == null) {
                synchronized (this) {
                    failuresInARow = 0;
                }
                LOG.debugf("%s: watching", name);
            }
        });
    }

    private void stopped(SharedIndexInformer<T> informer, Throwable failure) {
        if (closed || informer != current) {
            return;
        }
        lastProblem = failure == null ? "the informer stopped" : describe(failure);
        scheduleRestart(informer, failure);
    }

    private synchronized void scheduleRestart(SharedIndexInformer<T> previous, Throwable failure) {
        if (closed) {
            return;
        }
        Duration delay = settings.restartDelay(failuresInARow++);
        restarts++;
        LOG.warnf("%s: the watch stopped (%s); starting it again in %s (restart %d)", name, lastProblem, delay, restarts);
        scheduler.schedule(() -> run(previous), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the informer again when it has run without watching for longer than the stall timeout without stopping:
     * fabric8's informer can be left so after a reconnect that failed, retrying nothing and telling no one. Called
     * periodically; a watch that reconnects within the timeout is left alone.
     */
    public void restartIfStalled() {
        SharedIndexInformer<T> informer = current;
        if (closed || informer == null) {
            return;
        }
        Instant now = clock.instant();
        if (informer.isWatching()) {
            startedAt = now;
            return;
        }
        if (!informer.isRunning() || Duration.between(startedAt, now).compareTo(settings.stallTimeout()) < 0) {
            return;
        }
        synchronized (this) {
            if (informer != current || closed) {
                return;
            }
            current = null;
        }
        lastProblem = "it ran without watching for " + settings.stallTimeout().toSeconds() + " s" + (lastProblem == null ? "" : " after: " + lastProblem);
        informer.stop();
        scheduleRestart(informer, null);
    }

    /**
     * Compares what the informer holds with what the API server lists now, and starts it again, from what it knew, when
     * the two differ in the same objects twice in a row. A watch whose connection died unseen (a load balancer's idle
     * cut, a server that stopped sending) still counts as watching and hears nothing more; its informer never learns
     * of it. A difference seen once may be an event in flight.
     *
     * @param listed what the API server lists now, of the kind and scope watched
     * @return whether it was started again
     */
    public boolean restartIfDeaf(Collection<? extends HasMetadata> listed) {
        SharedIndexInformer<T> informer = current;
        if (closed || informer == null || !informer.isWatching()) {
            lastDrift = Set.of();
            return false;
        }
        Set<String> there = listed.stream().map(Cache::metaNamespaceKeyFunc).collect(Collectors.toSet());
        Set<String> held = new HashSet<>(informer.getStore().listKeys());
        Set<String> drift = new TreeSet<>(there);
        drift.removeAll(held);
        held.removeAll(there);
        drift.addAll(held);
        Set<String> persisting = new TreeSet<>(drift);
        persisting.retainAll(lastDrift);
        lastDrift = drift;
        if (persisting.isEmpty()) {
            return false;
        }
        synchronized (this) {
            if (informer != current || closed) {
                return false;
            }
            current = null;
        }
        lastDrift = Set.of();
        lastProblem = "its watch missed changes the API server shows, e.g. " + persisting.iterator().next() + " (" + persisting.size()
                + " objects)";
        informer.stop();
        scheduleRestart(informer, null);
        return true;
    }

    /** Whether it watches now; not watching for less than the grace period (a watch reconnecting) counts as watching. */
    public WatchStatus status() {
        SharedIndexInformer<T> informer = current;
        Instant now = clock.instant();
        boolean watching = !closed && informer != null && informer.isRunning() && informer.hasSynced() && informer.isWatching();
        if (watching) {
            notWatchingSince = null;
            return new WatchStatus(name, true, null);
        }
        Instant since = notWatchingSince;
        if (since == null) {
            notWatchingSince = now;
            since = now;
        }
        if (informer != null && informer.hasSynced() && Duration.between(since, now).compareTo(settings.reconnectGrace()) < 0) {
            return new WatchStatus(name, true, null);
        }
        String problem = closed ? "closed" : lastProblem == null ? "not listed yet" : lastProblem;
        return new WatchStatus(name, false, problem + " (not watching since " + since + ")");
    }

    /** The objects the informer holds now, in the form its store keeps them. */
    public List<T> list() {
        SharedIndexInformer<T> informer = current;
        return informer == null ? List.of() : informer.getStore().list();
    }

    /**
     * The objects the informer holds, only while it watches now (listed, and its watch open): then what it does not hold
     * is not there. Empty while it lists, reconnects or is stopped.
     */
    public Optional<List<T>> listIfWatching() {
        SharedIndexInformer<T> informer = current;
        if (closed || informer == null || !informer.isRunning() || !informer.hasSynced() || !informer.isWatching()) {
            return Optional.empty();
        }
        return Optional.of(informer.getStore().list());
    }

    /** How many times it was started again after stopping. */
    public synchronized int restarts() {
        return restarts;
    }

    /** How long it would wait before starting again if its informer stopped now. */
    public synchronized Duration nextRestartDelay() {
        return settings.restartDelay(failuresInARow);
    }

    boolean isClosed() {
        return closed;
    }

    public String name() {
        return name;
    }

    @Override
    public void close() {
        closed = true;
        SharedIndexInformer<T> informer = current;
        if (informer != null) {
            informer.close();
        }
    }

    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getClass().getSimpleName() + ": " + root.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
