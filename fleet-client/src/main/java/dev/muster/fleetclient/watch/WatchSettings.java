package dev.muster.fleetclient.watch;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SupervisedInformer} starts again after its informer stopped, and how long a watch may reconnect
 * before readiness counts it as not watching.
 *
 * @param restartBackoff    the wait before the first restart; doubles with each restart
 * @param maxRestartBackoff the longest wait between restarts
 * @param reconnectGrace    how long a watch may be re-established (a closed connection, a 410) and still count as watching
 * @param stallTimeout      how long an informer may run without watching before it is taken for stuck and started again
 */
public record WatchSettings(Duration restartBackoff, Duration maxRestartBackoff, Duration reconnectGrace, Duration stallTimeout) {

    public WatchSettings {
        Objects.requireNonNull(restartBackoff, "restartBackoff");
        Objects.requireNonNull(maxRestartBackoff, "maxRestartBackoff");
        Objects.requireNonNull(reconnectGrace, "reconnectGrace");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        if (stallTimeout.compareTo(reconnectGrace) < 0) {
            throw new IllegalArgumentException("the stall timeout must be at least the reconnect grace, got " + stallTimeout + " and " + reconnectGrace);
        }
        if (restartBackoff.isNegative() || restartBackoff.isZero() || maxRestartBackoff.compareTo(restartBackoff) < 0) {
            throw new IllegalArgumentException("restart backoff must be positive and at most its maximum, got " + restartBackoff
                    + " and " + maxRestartBackoff);
        }
    }

    static WatchSettings of(WatchConfig config) {
        return new WatchSettings(config.restartBackoff(), config.maxRestartBackoff(), config.reconnectGrace(), config.stallTimeout());
    }

    /** The wait before restart number {@code restarts} (0 for the first). */
    Duration restartDelay(int restarts) {
        Duration delay = restartBackoff.multipliedBy(1L << Math.min(restarts, 20));
        return delay.compareTo(maxRestartBackoff) > 0 ? maxRestartBackoff : delay;
    }
}
