package dev.muster.simulator.cluster;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/**
 * Forgets the requests a simulated API server has answered. fabric8's mock server keeps every request it
 * receives, body included, for tests that call {@code takeRequest()}; nothing here does, so a simulated cluster
 * grew for as long as it ran (a long {@code ./muster up}, the hundreds of thousands of requests of a benchmark
 * run).
 */
final class ServedRequests {

    private volatile KubernetesMockServer server;

    /** The server whose requests to forget; until it is set, nothing is. */
    void of(KubernetesMockServer served) {
        this.server = served;
    }

    /** Forgets the requests recorded so far, the one being answered included. */
    void forget() {
        KubernetesMockServer served = server;
        if (served == null) {
            return;
        }
        try {
            while (served.takeRequest(0, TimeUnit.NANOSECONDS) != null) {
                // Dropped: only their count and order would have been of use, to a test.
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
