package dev.muster.fleetclient.watch;

/**
 * Whether one watch runs.
 *
 * @param name     what is watched, e.g. {@code fleet pytorchjobs}
 * @param watching whether its objects are being watched now
 * @param problem  why not, when not
 */
public record WatchStatus(String name, boolean watching, String problem) {
}
