package dev.muster.local;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.muster.testing.service.ServiceProcess;

/**
 * Keeps the local stack's services running, as Kubernetes restarts a crashed container: a service that exits while the
 * stack runs is started again after a doubling backoff (1 s to 30 s; back to 1 s once it has run for a minute), and
 * says so. {@code ./muster restart SERVICE} stops one cleanly and starts it again; {@code ./muster kill SERVICE} kills
 * it (SIGKILL), to try a crash by hand, and the supervisor brings it back.
 */
final class ServiceSupervisor implements AutoCloseable {

    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    private static final Duration STABLE = Duration.ofMinutes(1);

    /** One supervised service and its restart history. */
    private static final class Supervised {
        final ServiceProcess process;
        int restarts;
        int failuresInARow;
        Instant startedAt;
        boolean restarting;
        /** Stopped on purpose, and left stopped until asked to start. */
        boolean stopped;

        Supervised(ServiceProcess process, Instant startedAt) {
            this.process = process;
            this.startedAt = startedAt;
        }
    }

    private final Consumer<String> say;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final Clock clock = Clock.systemUTC();
    private final Map<MusterService, Supervised> services = new LinkedHashMap<>();
    private final ScheduledExecutorService restarts = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "service-supervisor");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean stopping;

    ServiceSupervisor(Consumer<String> say, Duration startTimeout, Duration stopTimeout) {
        this.say = say;
        this.startTimeout = startTimeout;
        this.stopTimeout = stopTimeout;
    }

    /** Watches a started service from now on. */
    synchronized void supervise(MusterService service, ServiceProcess process) {
        Supervised supervised = new Supervised(process, clock.instant());
        services.put(service, supervised);
        watch(service, supervised);
    }

    private void watch(MusterService service, Supervised supervised) {
        supervised.process.exited().thenAccept(status -> exited(service, supervised, status));
    }

    private synchronized void exited(MusterService service, Supervised supervised, Integer status) {
        if (stopping || supervised.restarting || supervised.stopped) {
            return;
        }
        boolean stable = Duration.between(supervised.startedAt, clock.instant()).compareTo(STABLE) >= 0;
        supervised.failuresInARow = stable ? 1 : supervised.failuresInARow + 1;
        Duration wait = FIRST_BACKOFF.multipliedBy(1L << Math.min(supervised.failuresInARow - 1, 5));
        wait = wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
        say.accept(service.artifact() + " exited" + (status == null ? "" : " with status " + status) + "; starting it again in "
                + wait.toSeconds() + " s (log " + supervised.process.log() + ")");
        restarts.schedule(() -> start(service, supervised), wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void start(MusterService service, Supervised supervised) {
        synchronized (this) {
            if (stopping || supervised.stopped) {
                return;
            }
        }
        try {
            supervised.process.startAgain(startTimeout);
            runningAgain(service, supervised);
        } catch (IOException | RuntimeException e) {
            say.accept(service.artifact() + " did not start: " + e.getMessage());
        }
        watch(service, supervised);
    }

    /** Stops the service cleanly and starts it again, now; returns once it is ready. */
    void restart(MusterService service) throws IOException, InterruptedException {
        restart(service, Map.of());
    }

    /**
     * Stops the service cleanly and starts it again with more system properties for this run only: once it exits, it is
     * started again as it was. How a test arms a crash point for one crash.
     */
    void restart(MusterService service, Map<String, String> forThisRun) throws IOException, InterruptedException {
        Supervised supervised = supervised(service);
        synchronized (this) {
            supervised.restarting = true;
        }
        try {
            say.accept("restarting " + service.artifact() + " (asked for)");
            supervised.process.stop(stopTimeout);
            supervised.process.startAgain(startTimeout, forThisRun);
            runningAgain(service, supervised);
        } finally {
            synchronized (this) {
                supervised.restarting = false;
            }
            watch(service, supervised);
        }
    }

    /** Stops the service cleanly and leaves it stopped, an outage of the service itself, until {@link #start(MusterService)}. */
    void stop(MusterService service) throws InterruptedException {
        Supervised supervised = supervised(service);
        synchronized (this) {
            supervised.stopped = true;
        }
        say.accept("stopping " + service.artifact() + " until it is started again (asked for)");
        supervised.process.stop(stopTimeout);
    }

    /** Starts a service {@link #stop(MusterService) stopped} on purpose, and returns once it is ready; leaves any other as it is. */
    void start(MusterService service) throws IOException {
        Supervised supervised = supervised(service);
        synchronized (this) {
            if (!supervised.stopped) {
                return;
            }
        }
        supervised.process.startAgain(startTimeout);
        synchronized (this) {
            supervised.stopped = false;
        }
        runningAgain(service, supervised);
        watch(service, supervised);
    }

    /** Counts a start again of the service, and says so. */
    private void runningAgain(MusterService service, Supervised supervised) {
        int restarts;
        synchronized (this) {
            restarts = ++supervised.restarts;
            supervised.startedAt = clock.instant();
        }
        say.accept(service.artifact() + " is running again (restart " + restarts + ")");
    }

    /** Kills the service (SIGKILL), as a crash would; the supervisor starts it again as for any crash. */
    void kill(MusterService service) throws InterruptedException {
        Supervised supervised = supervised(service);
        say.accept("killing " + service.artifact() + " (asked for, SIGKILL)");
        supervised.process.kill();
    }

    /** Each service's state, for {@code GET /services}. */
    synchronized Map<String, Object> describe() {
        Map<String, Object> all = new LinkedHashMap<>();
        services.forEach((service, supervised) -> all.put(service.artifact(), Map.of("running", supervised.process.isAlive(),
                "pid", supervised.process.pid(), "port", supervised.process.port(), "restarts", supervised.restarts,
                "since", supervised.startedAt.toString())));
        return all;
    }

    private synchronized Supervised supervised(MusterService service) {
        Supervised supervised = services.get(service);
        if (supervised == null) {
            throw new NoSuchElementException(service.artifact() + " is not running in this stack");
        }
        return supervised;
    }

    /** Stops supervising: what exits from now on stays stopped. */
    @Override
    public void close() {
        stopping = true;
        restarts.shutdownNow();
    }
}
