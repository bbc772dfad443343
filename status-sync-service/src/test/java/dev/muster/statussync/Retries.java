package dev.muster.statussync;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;

/**
 * For tests of what is sent again until the broker has it: backoffs, and the thread the tries wait on, stopped after each
 * test ({@code @RegisterExtension}).
 */
public final class Retries implements AfterEachCallback {

    /** Tried again at once, as often as it takes. */
    public static final RetryPolicy AT_ONCE = new RetryPolicy(failure -> true, Duration.ofMillis(1), Duration.ofMillis(5));
    /** Tried again only after the test is over. */
    public static final RetryPolicy IN_AN_HOUR = new RetryPolicy(failure -> true, Duration.ofHours(1), Duration.ofHours(1));

    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

    public ScheduledExecutorService executor() {
        return executor;
    }

    /** Stops the thread; the tries that were waiting on it. */
    public List<Runnable> shutdownNow() {
        return executor.shutdownNow();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        executor.shutdownNow();
    }
}
