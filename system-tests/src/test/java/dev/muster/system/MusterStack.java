package dev.muster.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.service.ServiceProcess;

/**
 * All of Muster on this machine, as the tests run it: a real broker, a fleet API server, simulated member
 * clusters, and the three packaged services as processes, each told where the others are.
 */
final class MusterStack implements AutoCloseable {

    private static final Duration START = Duration.ofSeconds(90);
    private static final int TOPIC_PARTITIONS = 3;

    final KafkaBroker broker;
    final FleetApiServer fleet;
    final SimulatedFleet members;
    private ServiceProcess queue;
    private ServiceProcess placement;
    private ServiceProcess statusSync;

    private MusterStack(KafkaBroker broker, FleetApiServer fleet, SimulatedFleet members) {
        this.broker = broker;
        this.fleet = fleet;
        this.members = members;
    }

    static MusterStack start(Path membersSpec) throws IOException {
        Path kubeconfigs = Files.createTempDirectory("muster-kubeconfigs");
        KafkaBroker broker = KafkaBroker.start();
        MusterTopics.create(broker, TOPIC_PARTITIONS);
        FleetApiServer fleet = null;
        SimulatedFleet members = null;
        MusterStack stack = null;
        try {
            fleet = FleetApiServer.start(kubeconfigs);
            members = SimulatedFleet.start(FleetSpec.read(membersSpec), kubeconfigs);
            stack = new MusterStack(broker, fleet, members);
            stack.startServices();
            return stack;
        } catch (IOException | RuntimeException e) {
            if (stack != null) {
                stack.close();
            } else {
                if (members != null) {
                    members.close();
                }
                if (fleet != null) {
                    fleet.close();
                }
                broker.close();
            }
            throw e;
        }
    }

    private void startServices() throws IOException {
        Map<String, String> common = new HashMap<>();
        common.put("kafka.bootstrap.servers", broker.bootstrapServers());
        common.put("quarkus.kubernetes-client.api-server-url", fleet.url());

        Map<String, String> queueProperties = new HashMap<>(common);
        queueProperties.put("muster.queue.fleet-api.resync", "1m");
        queue = ServiceProcess.start(jar("queue-service"), queueProperties, START);

        Map<String, String> placementProperties = new HashMap<>(common);
        Map<String, String> statusSyncProperties = new HashMap<>(common);
        statusSyncProperties.put("muster.status-sync.health-interval", "1s");
        for (SimulatedCluster cluster : members.clusters()) {
            placementProperties.put("muster.placement.members." + cluster.name() + ".kubeconfig", cluster.kubeconfig().toString());
            statusSyncProperties.put("muster.status-sync.members." + cluster.name() + ".kubeconfig", cluster.kubeconfig().toString());
        }
        placement = ServiceProcess.start(jar("placement-service"), placementProperties, START);
        statusSync = ServiceProcess.start(jar("status-sync-service"), statusSyncProperties, START);
    }

    private static Path jar(String service) {
        return Path.of("..", service, "target", "quarkus-app", "quarkus-run.jar");
    }

    SimulatedCluster member(String name) {
        return members.cluster(name).orElseThrow();
    }

    /** Where each service's log is, for a failure message. */
    String logs() {
        return "queue " + queue.log() + ", placement " + placement.log() + ", status sync " + statusSync.log();
    }

    @Override
    public void close() {
        for (ServiceProcess service : new ServiceProcess[] {statusSync, placement, queue}) {
            if (service != null) {
                try {
                    service.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        members.close();
        fleet.close();
        broker.close();
    }
}
