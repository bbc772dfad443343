package dev.muster.statussync.core.mirror;

import java.time.Duration;

/**
 * How the mirror acts.
 *
 * @param maxFailovers a job that failed on its member this many times over is finished as Failed rather than moved again
 * @param purgeRetry   how long to wait for a member to confirm a purge before asking again
 */
public record MirrorSettings(int maxFailovers, Duration purgeRetry) {
}
