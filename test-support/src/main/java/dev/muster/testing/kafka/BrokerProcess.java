package dev.muster.testing.kafka;

import java.time.Duration;

/**
 * One run of a broker node, wherever it runs: what {@link KafkaBroker} needs to watch it, stop it and kill it. A
 * stopped or killed run is not started again; the broker launches a new one on the same ports and data.
 */
interface BrokerProcess {

    boolean isAlive();

    /** The node's process id on this host, for measuring it; -1 when that cannot be known. */
    long pid();

    /** Asks the node to shut down cleanly and waits for it; kills it when it has not exited within the timeout. */
    void stop(Duration timeout);

    /** Kills the node at once, as a crash or a power cut would, and waits for it to be gone. */
    void kill(Duration timeout);

    /** Waits up to {@code moment} for the node to exit, returning at once when it does. */
    void pause(Duration moment);

    /** How the node ended, for an error message: its exit status. */
    String exitDescription();
}
