package dev.muster.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.muster.simulator.admin.AdminServer;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.simulator.fault.ApiProxy;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import dev.muster.model.event.Topics;
import dev.muster.model.json.Kubeconfig;
import dev.muster.testing.kafka.BrokerLauncher;
import dev.muster.testing.kafka.KafkaAcls;
import dev.muster.testing.kafka.KafkaBroker;
import dev.muster.testing.kafka.KafkaBrokerConfig;
import dev.muster.testing.kafka.KafkaCredentials;
import dev.muster.testing.kafka.MusterTopics;
import dev.muster.testing.net.LoopbackPorts;
import dev.muster.testing.service.ServiceProcess;

/**
 * All of Muster on this machine: a real Kafka broker (KRaft, its data kept in the home folder), a fleet API
 * server, the simulated member clusters of a fleet spec, and the three packaged services as their own
 * processes, each told where the others are. {@code ./muster up} runs one; the system tests run another.
 */
public final class LocalStack implements AutoCloseable {

    /** Read by {@code kubectl muster} from beside the kubeconfig it is given. */
    public static final String ENDPOINTS_FILE = "muster-endpoints.properties";
    /** The endpoints file's key for the simulated members' admin API, which {@code ./muster fault} and {@code complete} call. */
    static final String SIMULATOR_ENDPOINT = "simulator";
    private static final int TOPIC_PARTITIONS = 3;
    /** The viewer of all namespaces that the fleet kubeconfig's user is in the services' views. */
    static final String FLEET_VIEWER = "fleet-admin";
    private static final Duration SERVICE_STOP = Duration.ofSeconds(20);

    private final LocalStackSettings settings;
    private final List<AutoCloseable> started = new ArrayList<>();
    private KafkaBroker broker;
    private FleetApiServer fleet;
    private ApiProxy fleetNetwork;
    private SimulatedFleet members;
    private AdminServer simulator;
    private final Map<MusterService, ServiceProcess> services = new LinkedHashMap<>();
    private final Map<MusterService, Integer> ports = new LinkedHashMap<>();
    private final ServiceSupervisor supervisor;

    private LocalStack(LocalStackSettings settings, Consumer<String> progress) throws IOException {
        this.settings = settings;
        this.supervisor = new ServiceSupervisor(progress, settings.serviceStart(), SERVICE_STOP);
        for (MusterService service : MusterService.values()) {
            ports.put(service, settings.port(service) == 0 ? LoopbackPorts.reserve() : settings.port(service));
        }
    }

    /**
     * Starts everything, in order, saying what it does through {@code progress}; on a failure stops what it
     * started and throws.
     *
     * @throws PortInUseException before anything starts, when a fixed port is taken
     */
    public static LocalStack start(LocalStackSettings settings, Consumer<String> progress) throws IOException {
        for (MusterService service : MusterService.values()) {
            requireFree(settings.port(service), service.artifact());
        }
        requireFree(settings.simulatorPort(), "the simulator's admin API");
        for (MusterService service : MusterService.values()) {
            if (!Files.exists(settings.jar(service))) {
                throw new IllegalStateException(settings.jar(service) + " is missing: build Muster first (./mvnw -B -ntp install -DskipTests)");
            }
        }
        LocalStack stack = new LocalStack(settings, progress);
        try {
            stack.startAll(progress);
            return stack;
        } catch (IOException | RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    private void startAll(Consumer<String> progress) throws IOException {
        Files.createDirectories(settings.logs());
        // The fleet API server and the members keep their state in memory; the broker starts as empty as they do,
        // or the services would restore jobs that no longer exist anywhere else.
        deleteRecursively(settings.kafkaData());
        progress.accept("starting Kafka broker (KRaft), data in " + settings.kafkaData());
        KafkaBrokerConfig brokerConfig = new KafkaBrokerConfig(Map.of(), KafkaBrokerConfig.TEST_JVM_OPTIONS, Duration.ofSeconds(90),
                settings.kafkaData(), true, false, BrokerLauncher.CHILD_JVM);
        broker = KafkaBroker.start(settings.securedKafka() == null ? brokerConfig : brokerConfig.securedWithTlsAndScram());
        started.add(broker);
        MusterTopics.create(broker, TOPIC_PARTITIONS);
        if (settings.securedKafka() != null) {
            progress.accept("securing Kafka: a user and ACLs per service, an inbox and a user per submitter");
            secureKafka(settings.securedKafka());
        }
        progress.accept("starting fleet API server");
        fleet = FleetApiServer.start(settings.home());
        started.add(fleet);
        // The services reach the fleet API through a relay, as they reach the members, so that their network to it can be
        // cut while users' kubectl still reaches it: the partition a fleet control plane suffers.
        fleetNetwork = ApiProxy.start(FleetApiServer.NAME,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), java.net.URI.create(fleet.url()).getPort()), 0);
        started.add(fleetNetwork);
        FleetSpec spec = FleetSpec.read(settings.fleetSpec());
        progress.accept("starting " + spec.clusters().size() + " simulated member clusters from " + settings.fleetSpec());
        members = SimulatedFleet.start(spec, settings.membersDirectory());
        started.add(members);
        simulator = AdminServer.start(members, settings.simulatorPort(), List.of(new ServicesAdmin(supervisor)));
        started.add(simulator);
        started.add(supervisor);
        // Side by side: none waits for another to be ready, and booting one after the other took twice as long.
        for (MusterService service : MusterService.values()) {
            progress.accept("starting " + service.artifact() + " on port " + port(service) + ", log " + settings.log(service));
            ServiceProcess process = ServiceProcess.launch(settings.jar(service), properties(service), port(service), settings.log(service));
            services.put(service, process);
            started.add(() -> process.stop(SERVICE_STOP));
        }
        for (MusterService service : MusterService.values()) {
            try {
                services.get(service).awaitReady(settings.serviceStart());
            } catch (IllegalStateException e) {
                // Three boot side by side: say which one failed, not only where its log is.
                throw new IllegalStateException(service.artifact() + ": " + e.getMessage(), e);
            }
            supervisor.supervise(service, services.get(service));
        }
        writeEndpoints();
    }

    private void secureKafka(LocalStackSettings.SecuredKafka secured) throws IOException {
        Files.createDirectories(settings.secrets());
        Files.createDirectories(settings.kafkaClients());
        for (MusterService service : MusterService.values()) {
            String user = service.kafkaAccess().service();
            KafkaCredentials credentials = broker.createUser(user);
            broker.grant(KafkaAcls.forService(service.kafkaAccess(), user));
            Map<String, String> secrets = new LinkedHashMap<>();
            credentials.clientProperties().forEach((name, value) -> secrets.put("kafka." + name, value));
            writePrivately(settings.secrets().resolve(service.artifact() + ".properties"), secrets);
        }
        for (Map.Entry<String, java.util.Set<String>> submitter : secured.submitters().entrySet()) {
            broker.createTopic(Topics.inboxOf(submitter.getKey()), TOPIC_PARTITIONS, Map.of());
            KafkaCredentials credentials = broker.createUser(submitter.getKey());
            broker.grant(KafkaAcls.forSubmitter(submitter.getKey()));
            writePrivately(kafkaClientConfig(submitter.getKey()), credentials.clientProperties());
        }
    }

    /** A submitter's Kafka client properties on a secured stack, as {@code kubectl muster submit --kafka-config} takes them. */
    public Path kafkaClientConfig(String submitter) {
        return settings.kafkaClients().resolve(submitter + ".properties");
    }

    /** A Kafka client's connection settings on this stack: as a submitter (secured stacks), or open. */
    public Map<String, Object> kafkaClientSettings(String submitter) throws IOException {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("bootstrap.servers", broker.bootstrapServers());
        if (settings().securedKafka() != null) {
            java.util.Properties properties = new java.util.Properties();
            try (java.io.Reader reader = Files.newBufferedReader(kafkaClientConfig(submitter))) {
                properties.load(reader);
            }
            properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));
        }
        return settings;
    }

    /** The connection settings of the broker's super user: what only an operator has. */
    public Map<String, Object> kafkaAdminSettings() {
        return broker.clientSettings(broker.secured() ? broker.adminCredentials() : null);
    }

    private static void writePrivately(Path file, Map<String, String> properties) throws IOException {
        java.util.Properties text = new java.util.Properties();
        text.putAll(properties);
        Files.deleteIfExists(file);
        Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        try (java.io.Writer writer = Files.newBufferedWriter(file)) {
            text.store(writer, "Written by the local stack: Kafka credentials. Keep private.");
        }
    }

    /** Where the services listen, beside the fleet's kubeconfig: {@code kubectl muster} finds status sync there. */
    private void writeEndpoints() throws IOException {
        StringBuilder text = new StringBuilder("# Written by the local stack: where Muster's services listen.\n");
        text.append("kafka=").append(broker.bootstrapServers()).append('\n');
        for (MusterService service : MusterService.values()) {
            text.append(service.endpointKey()).append("=http://127.0.0.1:").append(port(service)).append('\n');
        }
        text.append(SIMULATOR_ENDPOINT).append('=').append(simulator.url()).append('\n');
        Files.writeString(settings.home().resolve(ENDPOINTS_FILE), text);
    }

    private Map<String, String> properties(MusterService service) {
        Map<String, String> properties = new LinkedHashMap<>();
        // On this machine only: nothing else needs to reach the services, and their views show job manifests.
        properties.put("quarkus.http.host", "127.0.0.1");
        properties.put("kafka.bootstrap.servers", broker.bootstrapServers());
        // Each service names itself to the fleet's and the members' API servers, as a real API server's audit shows callers.
        properties.put("kubernetes.user.agent", "muster-" + service.artifact());
        // A local fleet and its members hold few objects: their lists are cheap, and a watch that went deaf is caught within 20 s.
        properties.put("muster.watch.audit-interval", "10s");
        properties.put("quarkus.kubernetes-client.api-server-url", "http://" + InetAddress.getLoopbackAddress().getHostAddress() + ":"
                + fleetNetwork.port());
        // The views take the fleet kubeconfig's token, which kubectl muster sends; the digest is no secret.
        Kubeconfig.bearerToken(fleet.kubeconfig(), null).ifPresent(token -> {
            properties.put("muster.views.viewers.\"" + FLEET_VIEWER + "\".token-sha256", Kubeconfig.tokenDigest(token));
            properties.put("muster.views.viewers.\"" + FLEET_VIEWER + "\".namespaces", "*");
        });
        if (settings.securedKafka() != null) {
            // Credentials from a file only its owner reads, not on the command line, where every process on the machine sees them.
            properties.put("quarkus.config.locations", settings.secrets().resolve(service.artifact() + ".properties").toUri().toString());
            if (service == MusterService.QUEUE) {
                settings.securedKafka().submitters().forEach((submitter, namespaces) -> properties.put(
                        "muster.queue.submitters.\"" + submitter + "\".namespaces", String.join(",", new java.util.TreeSet<>(namespaces))));
            }
        }
        switch (service) {
            // One instance of each, restarted under the same name by the supervisor: it fences what it left open.
            case QUEUE -> {
                properties.put("muster.queue.fleet-api.resync", "1m");
                // A local queue is short: its start times are cheap to work out, and a waiting job shows its estimate within 10 s.
                properties.put("muster.queue.start-time-refresh", "5s");
                properties.put("muster.queue.instance-id", "local-0");
            }
            case PLACEMENT -> {
                properties.put("muster.placement.members-directory", settings.membersDirectory().toString());
                properties.put("muster.placement.instance-id", "local-0");
            }
            case STATUS_SYNC -> {
                properties.put("muster.status-sync.members-directory", settings.membersDirectory().toString());
                properties.put("muster.status-sync.health-interval", "1s");
            }
        }
        properties.putAll(settings.extraProperties().getOrDefault(service, Map.of()));
        return properties;
    }

    public KafkaBroker broker() {
        return broker;
    }

    /** Where the stack keeps its state and logs, and how it was started. */
    public LocalStackSettings settings() {
        return settings;
    }

    public FleetApiServer fleet() {
        return fleet;
    }

    /** The services' network to the fleet API, to cut and heal; users' kubectl reaches the fleet API past it. */
    public ApiProxy fleetNetwork() {
        return fleetNetwork;
    }

    public SimulatedCluster member(String name) {
        return members.cluster(name).orElseThrow(() -> new IllegalArgumentException("no member cluster " + name));
    }

    public List<SimulatedCluster> members() {
        return members.clusters();
    }

    /** The service's HTTP port. */
    public int port(MusterService service) {
        return ports.get(service);
    }

    /**
     * Stops the service cleanly and starts it with more system properties for this run only (a crash point, say); from
     * its next start, after a crash too, it runs as configured.
     */
    public void restart(MusterService service, Map<String, String> forThisRun) throws IOException, InterruptedException {
        supervisor.restart(service, forThisRun);
    }

    /** Stops the service cleanly and keeps it stopped until {@link #startService}: what an outage of it leaves behind. */
    public void stopService(MusterService service) throws InterruptedException {
        supervisor.stop(service);
    }

    /** Starts a service {@link #stopService stopped} on purpose, and returns once it is ready; leaves any other as it is. */
    public void startService(MusterService service) throws IOException {
        supervisor.start(service);
    }

    public ServiceProcess service(MusterService service) {
        return services.get(service);
    }

    /** What runs where, and how to use it: printed once the stack is up. */
    public String summary() {
        StringBuilder text = new StringBuilder();
        text.append("Fleet API           ").append(fleet.url()).append('\n');
        text.append("  kubectl           export KUBECONFIG=").append(fleet.kubeconfig()).append('\n');
        text.append("Members\n");
        for (SimulatedCluster cluster : members.clusters()) {
            text.append("  ").append(String.format("%-18s %s  (kubeconfig %s)", cluster.name(), cluster.url(), cluster.kubeconfig())).append('\n');
        }
        text.append("Kafka               ").append(broker.bootstrapServers()).append('\n');
        for (MusterService service : MusterService.values()) {
            text.append(String.format("%-20s http://127.0.0.1:%d  (log %s)", service.artifact(), port(service), settings.log(service)))
                    .append('\n');
        }
        text.append(String.format("%-20s %s  (./muster fault CLUSTER unreachable|heal, ./muster complete JOB)", "simulator admin", simulator.url()))
                .append('\n');
        text.append("kubectl muster      export PATH=").append(settings.repository().resolve("bin")).append(":$PATH; kubectl muster get pytorchjob -M\n");
        return text.toString();
    }

    /** Stops everything it started, newest first: services cleanly, then members, the fleet API and the broker. */
    @Override
    public void close() {
        // First, or the services stopped below would be started again.
        supervisor.close();
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // Stopping the rest matters more than this one's failure.
                System.err.println("muster: could not stop " + started.get(i) + ": " + e.getMessage());
            }
        }
        started.clear();
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (var paths = Files.walk(folder)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static void requireFree(int port, String what) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new PortInUseException(port, what);
        }
    }
}
