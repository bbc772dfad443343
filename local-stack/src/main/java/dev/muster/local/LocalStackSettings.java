package dev.muster.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Where a local stack keeps its state and what it runs.
 *
 * @param home             its folder: the fleet's kubeconfig, {@code members/} (one kubeconfig per member),
 *                         {@code kafka/} (the broker's data), {@code logs/}, the pid file
 * @param fleetSpec        the simulated member clusters, e.g. {@code deploy/local/fleet.yaml}
 * @param repository       the Muster checkout whose packaged services run
 * @param portBase         the services listen on base+1, base+2, base+3, the simulator's admin API on base+4; 0 for
 *                         any free ports
 * @param serviceStart     how long a service may take to become ready
 * @param extraProperties  more system properties per service, e.g. shorter intervals in tests
 * @param securedKafka     null for an open broker (the default); else a broker that takes only SCRAM users over TLS,
 *                         each service with its own user and ACLs, and these submitters
 */
public record LocalStackSettings(Path home, Path fleetSpec, Path repository, int portBase, Duration serviceStart,
                                 Map<MusterService, Map<String, String>> extraProperties, SecuredKafka securedKafka) {

    /**
     * A secured broker's submitters: for each (its Kafka user's name) the namespaces it may submit to and delete from.
     * Each gets an inbox, a user with a random password, and a client properties file in {@code kafka-clients/}.
     */
    public record SecuredKafka(Map<String, Set<String>> submitters) {

        public SecuredKafka {
            submitters = Map.copyOf(submitters);
        }
    }

    /** With an open broker. */
    public LocalStackSettings(Path home, Path fleetSpec, Path repository, int portBase, Duration serviceStart,
                              Map<MusterService, Map<String, String>> extraProperties) {
        this(home, fleetSpec, repository, portBase, serviceStart, extraProperties, null);
    }

    /** The default base: the services on 8081 (queue), 8082 (placement), 8083 (status sync), the simulator's admin API on 8084. */
    public static final int DEFAULT_PORT_BASE = 8080;
    /** The highest base whose ports all exist. */
    public static final int MAX_PORT_BASE = 65535 - 4;
    private static final int SIMULATOR_PORT_OFFSET = 4;

    public LocalStackSettings {
        home = home.toAbsolutePath();
        fleetSpec = fleetSpec.toAbsolutePath();
        repository = repository.toAbsolutePath();
        extraProperties = Map.copyOf(extraProperties);
    }

    /** The defaults of {@code ./muster up} in a checkout: home {@code .muster}, the fleet of {@code deploy/local/fleet.yaml}. */
    public static LocalStackSettings defaults(Path repository) {
        return new LocalStackSettings(repository.resolve(".muster"), repository.resolve("deploy/local/fleet.yaml"), repository,
                DEFAULT_PORT_BASE, Duration.ofSeconds(120), Map.of());
    }

    public Path membersDirectory() {
        return home.resolve("members");
    }

    public Path kafkaData() {
        return home.resolve("kafka");
    }

    /** Where a secured stack writes each submitter's Kafka client properties (owner-readable only). */
    public Path kafkaClients() {
        return home.resolve("kafka-clients");
    }

    /** Where a secured stack keeps each service's Kafka credentials (owner-readable only). */
    Path secrets() {
        return home.resolve("secrets");
    }

    public Path logs() {
        return home.resolve("logs");
    }

    public Path pidFile() {
        return home.resolve("muster.pid");
    }

    Path log(MusterService service) {
        return logs().resolve(service.artifact() + ".log");
    }

    Path jar(MusterService service) {
        return repository.resolve(service.artifact()).resolve("target/quarkus-app/quarkus-run.jar");
    }

    /** The simulated members' admin API port (faults, finishing jobs); 0 when any free port will do. */
    int simulatorPort() {
        return portBase == 0 ? 0 : portBase + SIMULATOR_PORT_OFFSET;
    }

    /** The service's fixed HTTP port from the base; 0 when any free port will do. */
    int port(MusterService service) {
        return portBase == 0 ? 0 : portBase + service.portOffset();
    }
}
