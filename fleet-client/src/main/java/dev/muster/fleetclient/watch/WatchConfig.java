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

    /**
     * How long an informer may run without watching (neither listing successfully nor re-establishing its watch, and
     * without stopping) before it is taken for stuck, as fabric8's can be after a failed reconnect, and started again
     * from what it knew. Default 1 minute.
     */
    @WithDefault("1m")
    Duration stallTimeout();

    /**
     * How often what each watch holds is compared with a list of the API server's: a watch whose connection died
     * unseen (a 410 after a cut, an idle connection dropped by a proxy) still counts as watching and hears nothing
     * more, and one that missed the same objects twice in a row is started again from what it knew, reporting what it
     * missed. One list per watch each time; {@code 0s} turns the audit off. Default 1 minute.
     */
    @WithDefault("1m")
    Duration auditInterval();
}
