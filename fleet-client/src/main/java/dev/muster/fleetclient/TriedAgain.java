package dev.muster.fleetclient;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;

/**
 * Tries an asynchronous step that fails while something it needs is away (a send to a broker past its producer's
 * delivery timeout) again, after the retry policy's doubling backoff, until it succeeds, is no longer wanted, or the
 * service stops: what is left then is the next instance's to decide again.
 *
 * @param <T> what is tried
 */
public final class TriedAgain<T> {

    /** Told each failure that is tried again, with the wait before the next try. */
    public interface Retrying<T> {
        void failed(T item, Throwable failure, Duration wait);
    }

    private final Function<T, CompletionStage<Void>> attempt;
    private final ScheduledExecutorService retries;
    private final RetryPolicy backoff;
    private final BooleanSupplier stopping;
    private final Retrying<T> retrying;

    /**
     * @param attempt  one try: done once it succeeded, failed otherwise (throwing counts as failing)
     * @param stopping whether the service stops
     */
    public TriedAgain(Function<T, CompletionStage<Void>> attempt, ScheduledExecutorService retries, RetryPolicy backoff, BooleanSupplier stopping,
                      Retrying<T> retrying) {
        this.attempt = attempt;
        this.retries = retries;
        this.backoff = backoff;
        this.stopping = stopping;
        this.retrying = retrying;
    }

    /** Tries the item until it succeeds; done then, never if the service stops first or {@code wanted} says no more. */
    public CompletableFuture<Void> run(T item, Predicate<T> wanted) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        attempt(item, 1, wanted, done);
        return done;
    }

    private void attempt(T item, int attempt, Predicate<T> wanted, CompletableFuture<Void> done) {
        CompletionStage<Void> tried;
        try {
            tried = this.attempt.apply(item);
        } catch (RuntimeException e) {
            tried = CompletableFuture.failedFuture(e);
        }
        tried.whenComplete((ignored, failure) -> {
            if (failure == null) {
                done.complete(null);
                return;
            }
            if (stopping.getAsBoolean() || !wanted.test(item)) {
                return;
            }
            Duration wait = backoff.backoff(attempt);
            retrying.failed(item, failure, wait);
            try {
                retries.schedule(() -> attempt(item, attempt + 1, wanted, done), wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopped) {
                // The service stops: left undone, as above.
            }
        });
    }
}
