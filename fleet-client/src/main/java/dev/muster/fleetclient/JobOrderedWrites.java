package dev.muster.fleetclient;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Runs Kubernetes API writes for different jobs at once and each job's writes in the order they were handed in: a
 * fixed set of single-threaded lanes, a job always in the same lane. A write waits for the API server's answer;
 * one lane for all jobs holds every job up by as many round trips as are queued before it (status sync's fleet
 * writes, placement's member writes).
 */
public final class JobOrderedWrites implements AutoCloseable {

    private final List<ExecutorService> lanes;
    /** For each key with a {@link #submitLatest} write queued, a token of the latest one. */
    private final Map<String, Object> latest = new ConcurrentHashMap<>();

    public JobOrderedWrites(int parallel, String threadName) {
        if (parallel < 1) {
            throw new IllegalArgumentException("writes need at least one lane, got " + parallel);
        }
        this.lanes = IntStream.range(0, parallel).mapToObj(lane -> Executors.newSingleThreadExecutor(daemon(threadName + "-" + lane))).toList();
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
        return CompletableFuture.runAsync(write, lanes.get(Math.floorMod(key.hashCode(), lanes.size())));
    }

    /**
     * Runs a write that replaces the whole of what the key's earlier ones of this kind wrote (a job's status): in
     * order, like {@link #submit}, but skipped when a later one for the key was handed in before it ran. Under
     * load a job's status passes through several states while its writes wait; only the last is worth a write.
     */
    public <T> CompletableFuture<Void> submitLatest(String key, T value, Consumer<T> write) {
        Object mine = new Object();
        latest.put(key, mine);
        return submit(key, () -> {
            if (latest.remove(key, mine)) {
                write.accept(value);
            }
        });
    }

    @Override
    public void close() {
        lanes.forEach(ExecutorService::shutdownNow);
    }
}
