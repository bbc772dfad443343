package dev.muster.fleetclient;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import org.jboss.logging.Logger;

/**
 * Runs Kubernetes API writes for different jobs at once and each job's writes in the order they were handed in: a
 * fixed set of single-threaded lanes, a job always in the same lane. A write waits for the API server's answer;
 * one lane for all jobs holds every job up by as many round trips as are queued before it (status sync's fleet
 * writes, placement's member writes).
 * <p>
 * A write that fails in a way {@link RetryPolicy#retryable} says is passing (the API server unreachable, a 5xx) is
 * tried again after a doubling, capped backoff, and the writes behind it in its lane wait meanwhile, so that none
 * overtakes it; a write that fails otherwise completes exceptionally and the lane goes on.
 * <p>
 * A write still queued, or in flight, when the writes are {@linkplain #close closed} never completes, nor does one
 * handed in after: a caller that acknowledges its input once the input's writes are done (status sync's consumed
 * records) leaves that input unacknowledged, to be read again by the next instance, rather than taking a write cut
 * short by the shutdown for one that failed.
 */
public final class JobOrderedWrites implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobOrderedWrites.class);

    /** Which failures are worth trying again, and how long to wait between tries. */
    public record RetryPolicy(Predicate<RuntimeException> retryable, Duration initialBackoff, Duration maxBackoff) {

        /** Every failure is final: the write completes exceptionally at once. */
        public static final RetryPolicy NONE = new RetryPolicy(failure -> false, Duration.ofSeconds(1), Duration.ofSeconds(1));

        /** How long to wait after the {@code failures}-th failure in a row (counted from 1). */
        public Duration backoff(int failures) {
            Duration wait = initialBackoff.multipliedBy(1L << Math.min(failures - 1, 20));
            return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
        }
    }

    private final List<Lane> lanes;
    private final RetryPolicy retries;
    /** For each key (and kind) with a {@link #submitLatest} write queued, a token of the latest one. */
    private final Map<String, Object> latest = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public JobOrderedWrites(int parallel, String threadName) {
        this(parallel, threadName, RetryPolicy.NONE);
    }

    public JobOrderedWrites(int parallel, String threadName, RetryPolicy retries) {
        if (parallel < 1) {
            throw new IllegalArgumentException("writes need at least one lane, got " + parallel);
        }
        this.retries = retries;
        this.lanes = IntStream.range(0, parallel).mapToObj(lane -> new Lane(threadName + "-" + lane)).toList();
    }

    /** Threads of this name that do not keep the service from stopping (a service's tickers run on them too). */
    public static ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Runs the write after every write handed in before for the same key.
     *
     * @param key what the write is ordered by, e.g. a job's {@code namespace/name}
     */
    public CompletableFuture<Void> submit(String key, Runnable write) {
        return lane(key).add(new Task(key, write, () -> true));
    }

    /**
     * Runs a write that replaces the whole of what the key's earlier ones of this kind wrote (a job's status): in
     * order, like {@link #submit}, but skipped when a later one for the key was handed in before it ran (or before it
     * is tried again). Under load a job's status passes through several states while its writes wait; only the last is
     * worth a write.
     */
    public <T> CompletableFuture<Void> submitLatest(String key, T value, Consumer<T> write) {
        return submitLatest(key, "", value, write);
    }

    /**
     * As {@link #submitLatest(String, Object, Consumer)}, for one of several kinds of whole writes of a key (a job's
     * status, its QueueUnit): a later write of the same kind makes it moot, one of another kind does not. All stay in
     * the key's order.
     */
    public <T> CompletableFuture<Void> submitLatest(String key, String kind, T value, Consumer<T> write) {
        String slot = kind.isEmpty() ? key : key + "|" + kind;
        Object mine = new Object();
        latest.put(slot, mine);
        return lane(key).add(new Task(key, () -> {
            latest.remove(slot, mine);
            write.accept(value);
        }, () -> {
            Object newest = latest.get(slot);
            return newest == null || newest == mine;
        }));
    }

    private Lane lane(String key) {
        return lanes.get(Math.floorMod(key.hashCode(), lanes.size()));
    }

    @Override
    public void close() {
        closed = true;
        lanes.forEach(Lane::close);
    }

    /** One write: what it does, and whether it is still wanted when its turn comes. */
    private record Task(String key, Runnable write, BooleanSupplier wanted, CompletableFuture<Void> done) {

        Task(String key, Runnable write, BooleanSupplier wanted) {
            this(key, write, wanted, new CompletableFuture<>());
        }
    }

    /** A queue of writes run one at a time on one thread; a write to be tried again stays at the head, waiting. */
    private final class Lane {

        private final ScheduledExecutorService thread;
        private final Deque<Task> queue = new ArrayDeque<>();
        private boolean draining;
        private int failures;

        Lane(String name) {
            this.thread = Executors.newSingleThreadScheduledExecutor(daemon(name));
        }

        CompletableFuture<Void> add(Task task) {
            synchronized (this) {
                if (closed) {
                    return task.done(); // never run, never completed: see the class comment
                }
                queue.addLast(task);
                if (draining) {
                    return task.done();
                }
                draining = true;
            }
            try {
                thread.execute(this::drain);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closed in between: the task stays queued and incomplete
            }
            return task.done();
        }

        private void drain() {
            while (true) {
                Task task;
                synchronized (this) {
                    task = queue.peekFirst();
                    if (task == null || closed) {
                        draining = false;
                        return;
                    }
                }
                if (!run(task)) {
                    if (closed) {
                        return;
                    }
                    Duration wait = retries.backoff(failures);
                    try {
                        thread.schedule(this::drain, wait.toMillis(), TimeUnit.MILLISECONDS);
                    } catch (java.util.concurrent.RejectedExecutionException e) {
                        // closed in between: the task stays queued and incomplete
                    }
                    return;
                }
                synchronized (this) {
                    queue.pollFirst();
                }
            }
        }

        /** Runs the head of the queue; false when it is to be tried again after a backoff, or was cut short by a close. */
        private boolean run(Task task) {
            if (!task.wanted().getAsBoolean()) {
                failures = 0;
                task.done().complete(null);
                return true;
            }
            try {
                task.write().run();
                failures = 0;
                task.done().complete(null);
                return true;
            } catch (RuntimeException e) {
                if (closed) {
                    // Interrupted by the close, or failing because of it: not an answer of the API server.
                    return false;
                }
                if (!retries.retryable().test(e)) {
                    failures = 0;
                    task.done().completeExceptionally(e);
                    return true;
                }
                failures++;
                LOG.warnf("a write for %s failed (%s); trying it again in %s, the writes after it waiting", task.key(), e.getMessage(),
                        retries.backoff(failures));
                return false;
            }
        }

        void close() {
            thread.shutdownNow();
        }
    }
}
