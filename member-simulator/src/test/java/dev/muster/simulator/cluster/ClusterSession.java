package dev.muster.simulator.cluster;

import java.io.IOException;
import java.nio.file.Path;

import dev.muster.simulator.spec.FleetSpec;
import io.fabric8.kubernetes.client.KubernetesClient;

/** A test's simulated fleet and a client of one of its clusters, reached through its kubeconfig; closing stops both. */
public record ClusterSession(SimulatedFleet fleet, KubernetesClient client) implements AutoCloseable {

    /** Starts the spec's clusters, writing kubeconfigs into the folder, and connects to the named one. */
    public static ClusterSession open(String specYaml, Path kubeconfigs, String cluster) throws IOException {
        SimulatedFleet fleet = SimulatedFleet.start(FleetSpec.parse(specYaml, "test"), kubeconfigs);
        try {
            return new ClusterSession(fleet, fleet.cluster(cluster).orElseThrow().connect());
        } catch (IOException | RuntimeException e) {
            fleet.close();
            throw e;
        }
    }

    @Override
    public void close() {
        client.close();
        fleet.close();
    }
}
