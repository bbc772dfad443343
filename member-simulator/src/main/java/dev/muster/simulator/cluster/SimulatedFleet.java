package dev.muster.simulator.cluster;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.muster.simulator.spec.ClusterSpec;
import dev.muster.simulator.spec.FleetSpec;

/** Every simulated member cluster of a spec, in one process, each on its own port with its own kubeconfig. */
public final class SimulatedFleet implements AutoCloseable {

    private final Map<String, SimulatedCluster> clusters;

    private SimulatedFleet(Map<String, SimulatedCluster> clusters) {
        this.clusters = clusters;
    }

    /** Starts every cluster of the spec, writing each one's kubeconfig into the folder. */
    public static SimulatedFleet start(FleetSpec spec, Path kubeconfigFolder) throws IOException {
        Map<String, SimulatedCluster> started = new LinkedHashMap<>();
        try {
            for (ClusterSpec cluster : spec.clusters()) {
                started.put(cluster.name(), SimulatedCluster.start(cluster, kubeconfigFolder, spec.time()));
            }
        } catch (IOException | RuntimeException e) {
            started.values().forEach(SimulatedCluster::close);
            throw e;
        }
        return new SimulatedFleet(started);
    }

    public Optional<SimulatedCluster> cluster(String name) {
        return Optional.ofNullable(clusters.get(name));
    }

    public List<SimulatedCluster> clusters() {
        return new ArrayList<>(clusters.values());
    }

    /**
     * The settings that point a Muster service at every member: {@code <prefix>.<cluster>.kubeconfig}, e.g. with the
     * prefix {@code muster.status-sync.members}.
     */
    public Map<String, String> memberSettings(String prefix) {
        Map<String, String> settings = new LinkedHashMap<>();
        clusters.values().forEach(cluster -> settings.put(prefix + "." + cluster.name() + ".kubeconfig", cluster.kubeconfig().toString()));
        return settings;
    }

    @Override
    public void close() {
        clusters.values().forEach(SimulatedCluster::close);
    }
}
