package dev.muster.runtime;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

/**
 * Has a standby run its core once on made-up inputs while it waits, so that taking over is not the first time its JVM
 * decodes a state record, restores a core or decides.
 * <p>
 * A JVM's first restore loads, verifies and links the decoders' and the core's classes: two seconds for a dozen records on
 * a busy two-core machine, spent after the session timeout while nothing decides. A standby has nothing better to do.
 */
public final class StandbyWarmUp {

    private static final Logger LOG = Logger.getLogger(StandbyWarmUp.class);

    private final String service;
    private final Runnable warmUp;
    private final AtomicBoolean started = new AtomicBoolean();

    /**
     * @param service names the service in the log
     * @param warmUp  decides on made-up inputs, writes and restores the state, in a core that is thrown away
     */
    public StandbyWarmUp(String service, Runnable warmUp) {
        this.service = service;
        this.warmUp = warmUp;
    }

    /** This instance stands by: warms up once, on a thread of its own. */
    public void standingBy() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        Thread thread = new Thread(this::warmUpOnce, "standby-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private void warmUpOnce() {
        long started = System.nanoTime();
        try {
            warmUp.run();
            LOG.infof("%s standing by: warmed up for a takeover in %d ms", service, Duration.ofNanos(System.nanoTime() - started).toMillis());
        } catch (RuntimeException e) {
            // Only the takeover's speed depends on it.
            LOG.warnf("%s standing by: warming up for a takeover failed (%s)", service, e.toString());
        }
    }
}
