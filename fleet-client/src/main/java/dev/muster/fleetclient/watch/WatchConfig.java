package dev.muster.fleetclient.watch;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How every Muster service keeps its Kubernetes watches running ({@code muster.watch.*}). */
@ConfigMapping(prefix = "muster.watch")
public interface WatchConfig {

    /** The wait before a stopped watch is started again; doubles with each restart. Default 1 s. */
    @WithDefault("1s")
    Duration restartBackoff();

    /** The longest wait between restarts of a watch. Default 1 minute. */
    @WithDefault("1m")
    Duration maxRestartBackoff();

    /** How long a watch may be re-established and still count as watching for readiness. Default 15 s. */
    @WithDefault("15s")
    Duration reconnectGrace();
}
