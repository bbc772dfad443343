package dev.muster.testing.kafka;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.errors.TopicExistsException;

import dev.muster.kafka.broker.BrokerRuntime;
import dev.muster.testing.net.LoopbackPorts;

/**
 * A real Apache Kafka broker (KRaft, combined broker and controller) on loopback, with its own ports and data folder.
 * <p>
 * By default the broker runs as a child JVM from the Maven Central jars the {@code kafka-broker} module resolved at
 * build time, so Kafka's server dependencies never share a class loader with the code under test; where a Docker engine
 * is at hand it may run in Apache Kafka's image instead ({@link BrokerLauncher}), from the same settings. It can be stopped
 * gracefully, killed as in a crash, and started again on the same ports and data, which is what
 * reliability tests need. Transactions work on the single node: the internal topics are created with
 * replication factor 1.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(KafkaBroker.class.getName());
    private static final Set<KafkaBroker> RUNNING = ConcurrentHashMap.newKeySet();
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration PROBE_INTERVAL = Duration.ofMillis(50);
    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();
    /** A secured broker's super user. */
    public static final String ADMIN_USER = "admin";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(KafkaBroker::kill), "kafka-broker-cleanup"));
    }

    private final KafkaBrokerConfig config;
    private final Path dataDirectory;
    private final boolean ownsDataDirectory;
    private final Path configFile;
    private final Path logFile;
    private final String clusterId;
    private final int brokerPort;
    private final int controllerPort;
    private final String adminPassword;
    private final BrokerTls tls;
    private BrokerProcess process;

    private KafkaBroker(KafkaBrokerConfig config) throws IOException {
        this.config = config;
        this.ownsDataDirectory = config.dataRoot() == null;
        this.dataDirectory = ownsDataDirectory
                ? Files.createTempDirectory("muster-kafka-")
                : Files.createDirectories(config.dataRoot());
        this.configFile = dataDirectory.resolve("server.properties");
        this.logFile = dataDirectory.resolve("broker.log");
        this.clusterId = Files.exists(dataDirectory.resolve("cluster.id"))
                ? Files.readString(dataDirectory.resolve("cluster.id")).trim()
                : newClusterId();
        Files.writeString(dataDirectory.resolve("cluster.id"), clusterId);
        this.brokerPort = LoopbackPorts.reserve();
        this.controllerPort = LoopbackPorts.reserve();
        if (config.secured()) {
            Path secret = dataDirectory.resolve("admin.secret");
            if (!Files.exists(secret)) {
                Files.writeString(secret, newPassword());
            }
            this.adminPassword = Files.readString(secret).trim();
            this.tls = BrokerTls.in(dataDirectory, adminPassword);
        } else {
            this.adminPassword = null;
            this.tls = null;
        }
    }

    /** Starts a broker with the test configuration and waits until it answers. */
    public static KafkaBroker start() {
        return start(KafkaBrokerConfig.forTests());
    }

    /** Starts a broker and waits until it answers. */
    public static KafkaBroker start(KafkaBrokerConfig config) {
        KafkaBroker broker;
        try {
            broker = new KafkaBroker(config);
        } catch (IOException e) {
            throw new KafkaBrokerException("cannot prepare the broker's data folder", e);
        }
        broker.startAgain();
        return broker;
    }

    /** {@code 127.0.0.1:<port>}: the same across restarts of this broker. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The broker's own log: what to read when a test sees the broker misbehave. */
    public Path logFile() {
        return logFile;
    }

    /** The broker JVM's process id, for measuring it; -1 when it is not running. */
    public synchronized long pid() {
        return isRunning() ? process.pid() : -1;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Starts the broker again on the same ports and data after {@link #stop()} or {@link #kill()}. */
    public synchronized void startAgain() {
        if (isRunning()) {
            throw new IllegalStateException("the broker at " + bootstrapServers() + " is already running");
        }
        try {
            writeServerProperties();
            process = switch (config.launcher()) {
                case CHILD_JVM -> ChildJvmBroker.launch(config, configFile, clusterId, logFile);
                case CONTAINER -> BrokerContainer.launch(config, dataDirectory, configFile, clusterId, logFile, brokerPort);
            };
        } catch (IOException e) {
            throw new KafkaBrokerException("cannot launch the broker (" + config.launcher() + ")", e);
        }
        RUNNING.add(this);
        awaitReady();
        LOG.log(Level.INFO, "Kafka broker {0} ready ({1}, data {2})", bootstrapServers(), config.launcher(), dataDirectory);
    }

    /** Shuts the broker down cleanly (SIGTERM) and waits for it to exit. */
    public synchronized void stop() {
        if (!isRunning()) {
            return;
        }
        process.stop(STOP_TIMEOUT);
        RUNNING.remove(this);
    }

    /** Kills the broker at once (SIGKILL), as a crash or a power cut would. */
    public synchronized void kill() {
        if (process == null) {
            return;
        }
        process.kill(STOP_TIMEOUT);
        RUNNING.remove(this);
    }

    /** Stops the broker cleanly and starts it again. */
    public synchronized void restart() {
        stop();
        startAgain();
    }

    /** Creates topics that do not exist yet, with replication factor 1; existing ones are left as they are. */
    public void createTopics(Collection<String> topics, int partitions) {
        topics.forEach(topic -> createTopic(topic, partitions, Map.of()));
    }

    /** Creates one topic with topic-level settings (e.g. {@code cleanup.policy=compact}) unless it exists. */
    public void createTopic(String topic, int partitions, Map<String, String> settings) {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(settings))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaBrokerException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new KafkaBrokerException("the broker did not create topic " + topic + " within 30 s" + logTail(), e);
        }
    }

    /** An admin client of this broker, as its super user when it is secured; the caller closes it. */
    public Admin admin() {
        Map<String, Object> settings = new LinkedHashMap<>(clientSettings(config.secured() ? adminCredentials() : null));
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000);
        return Admin.create(settings);
    }

    /** Whether clients must authenticate over TLS and are authorized by ACLs. */
    public boolean secured() {
        return config.secured();
    }

    /**
     * A client's settings for this broker: where it is and, for a secured one, how to authenticate as {@code user}
     * (ignored, and may be null, when the broker is open).
     */
    public Map<String, Object> clientSettings(KafkaCredentials user) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        if (config.secured()) {
            settings.putAll(java.util.Objects.requireNonNull(user, "a secured broker needs credentials").clientProperties());
        }
        return settings;
    }

    /** The broker's super user, which may do anything: for setting up users, topics and ACLs, not for the services. */
    public KafkaCredentials adminCredentials() {
        requireSecured();
        return new KafkaCredentials(ADMIN_USER, adminPassword, tls.truststore(), tls.password());
    }

    /** Creates (or gives a new password to) a SCRAM user with a random password; it may do nothing until ACLs allow it. */
    public KafkaCredentials createUser(String username) {
        requireSecured();
        String password = newPassword();
        try (Admin admin = admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(username,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password))).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaBrokerException("cannot create Kafka user " + username + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while creating Kafka user " + username, e);
        }
        return new KafkaCredentials(username, password, tls.truststore(), tls.password());
    }

    /**
     * Puts a consumer group's committed offsets back to the beginning of the given topics, as a broker that lost them
     * hands them to the group's next member. Only a group with no member can be changed: this waits (up to {@code within})
     * until the last one's session has expired.
     */
    public void rewindGroup(String group, Collection<String> topics, Duration within) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> beginning = new LinkedHashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().forEach(topic -> topic.partitions()
                    .forEach(partition -> beginning.put(new TopicPartition(topic.name(), partition.partition()), new OffsetAndMetadata(0))));
            org.awaitility.Awaitility.await("group " + group + " without members, its offsets rewound").atMost(within)
                    .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> admin.alterConsumerGroupOffsets(group, beginning).all().get(10, TimeUnit.SECONDS) == null);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaBrokerException("cannot read the partitions of " + topics + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while rewinding group " + group, e);
        }
    }

    /**
     * Whether a consumer group has committed, on every partition of the given topics, the offset past its last record: it
     * has read them to their end. For topics written outside transactions (a marker takes an offset no record has).
     */
    public boolean groupReadToTheEnd(String group, Collection<String> topics) {
        try (Admin admin = admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new LinkedHashMap<>();
            admin.describeTopics(topics).allTopicNames().get(30, TimeUnit.SECONDS).values().forEach(topic -> topic.partitions()
                    .forEach(partition -> latest.put(new TopicPartition(topic.name(), partition.partition()),
                            org.apache.kafka.clients.admin.OffsetSpec.latest())));
            return admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream().allMatch(end -> end.getValue().offset() == 0
                    || committed.get(end.getKey()) != null && committed.get(end.getKey()).offset() >= end.getValue().offset());
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaBrokerException("cannot read the offsets of group " + group + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while reading the offsets of group " + group, e);
        }
    }

    /** Adds ACLs (the broker denies whatever none allows). */
    public void grant(Collection<AclBinding> acls) {
        requireSecured();
        try (Admin admin = admin()) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaBrokerException("cannot create ACLs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while creating ACLs", e);
        }
    }

    private void requireSecured() {
        if (!config.secured()) {
            throw new IllegalStateException("the broker at " + bootstrapServers() + " is not secured: it has no users or ACLs");
        }
    }

    /** Kills the broker and, when it created its data folder, deletes it. */
    @Override
    public synchronized void close() {
        kill();
        RUNNING.remove(this);
        if (ownsDataDirectory) {
            deleteRecursively(dataDirectory);
        }
    }

    private Map<String, String> serverProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", "1");
        properties.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        properties.put("controller.listener.names", "CONTROLLER");
        if (config.secured()) {
            properties.putAll(securedListeners());
        } else {
            properties.put("listeners", "PLAINTEXT://" + listenerHost() + ":" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
            properties.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            properties.put("inter.broker.listener.name", "PLAINTEXT");
            properties.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        }
        properties.put("log.dirs", dataDirectory.resolve("logs").toString());
        properties.put("num.partitions", "3");
        // Topics are created on purpose, with the partition count Muster needs; a typo must fail, not create a topic.
        properties.put("auto.create.topics.enable", "false");
        // One node: every internal topic has one replica, so transactions and consumer groups work.
        properties.put("offsets.topic.replication.factor", "1");
        properties.put("offsets.topic.num.partitions", "5");
        properties.put("transaction.state.log.replication.factor", "1");
        properties.put("transaction.state.log.min.isr", "1");
        properties.put("transaction.state.log.num.partitions", "5");
        properties.put("share.coordinator.state.topic.replication.factor", "1");
        properties.put("share.coordinator.state.topic.min.isr", "1");
        properties.put("group.initial.rebalance.delay.ms", "0");
        // A restarted node re-registers only once its previous registration's session has expired: keep it short.
        properties.put("broker.session.timeout.ms", "2000");
        properties.put("broker.heartbeat.interval.ms", "500");
        properties.putAll(config.serverProperties());
        return properties;
    }

    /**
     * Clients on SCRAM-SHA-512 over TLS, the broker talking to itself the same way as the super user (whose SCRAM
     * credential is written when the storage is formatted: SCRAM users live in the metadata log, which the controller
     * listener must work without, so that one takes PLAIN), and the standard KRaft authorizer: no ACL, no access.
     */
    private Map<String, String> securedListeners() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("listeners", "SASL_SSL://" + listenerHost() + ":" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
        properties.put("advertised.listeners", "SASL_SSL://127.0.0.1:" + brokerPort);
        properties.put("inter.broker.listener.name", "SASL_SSL");
        properties.put("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
        properties.put("sasl.enabled.mechanisms", KafkaCredentials.MECHANISM);
        properties.put("sasl.mechanism.inter.broker.protocol", KafkaCredentials.MECHANISM);
        properties.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                KafkaCredentials.jaasConfig("org.apache.kafka.common.security.scram.ScramLoginModule", ADMIN_USER, adminPassword));
        properties.put("sasl.mechanism.controller.protocol", "PLAIN");
        properties.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        properties.put("listener.name.controller.plain.sasl.jaas.config",
                KafkaCredentials.jaasConfig("org.apache.kafka.common.security.plain.PlainLoginModule", ADMIN_USER, adminPassword)
                        .replace(";", " user_" + ADMIN_USER + "=\"" + adminPassword + "\";"));
        properties.put("ssl.keystore.type", "PKCS12");
        properties.put("ssl.keystore.location", tls.keystore().toString());
        properties.put("ssl.keystore.password", tls.password());
        properties.put("ssl.key.password", tls.password());
        properties.put("ssl.truststore.type", "PKCS12");
        properties.put("ssl.truststore.location", tls.truststore().toString());
        properties.put("ssl.truststore.password", tls.password());
        properties.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        properties.put("super.users", "User:" + ADMIN_USER);
        return properties;
    }

    private void writeServerProperties() throws IOException {
        if (config.secured()) {
            Files.writeString(configFile.resolveSibling(BrokerRuntime.FORMAT_ARGUMENTS),
                    "--add-scram\n" + KafkaCredentials.MECHANISM + "=[name=" + ADMIN_USER + ",password=" + adminPassword + "]\n");
        }
        StringBuilder text = new StringBuilder("# written by Muster's KafkaBroker\n");
        serverProperties().forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        Files.writeString(configFile, text.toString());
    }

    private String listenerHost() {
        return config.launcher().listenerHost();
    }

    private void awaitReady() {
        Instant deadline = Instant.now().plus(config.startTimeout());
        KafkaBrokerException last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new KafkaBrokerException("the broker " + process.exitDescription() + " while starting" + logTail());
            }
            if (!acceptsConnections()) {
                process.pause(PROBE_INTERVAL);
                continue;
            }
            try (Admin admin = admin()) {
                if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                    return;
                }
            } catch (ExecutionException | TimeoutException e) {
                last = new KafkaBrokerException("not ready: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new KafkaBrokerException("interrupted while waiting for the broker", e);
            }
        }
        kill();
        throw new KafkaBrokerException("the broker at " + bootstrapServers() + " did not answer within "
                + config.startTimeout().toSeconds() + " s" + logTail(), last);
    }

    // Asking the admin client before the port is open only fills the log with connection warnings.
    private boolean acceptsConnections() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), brokerPort), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile);
            return "\n--- last lines of " + logFile + " ---\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return " (no broker log at " + logFile + ")";
        }
    }

    /**
     * A base64 UUID of 22 characters, as {@code kafka-storage random-uuid} prints. Like Kafka's own, never one
     * that starts with '-': the storage tool would read it as an option and refuse to format.
     */
    static String newClusterId() {
        while (true) {
            UUID uuid = UUID.randomUUID();
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(16);
            bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
            String id = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.array());
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }

    /** A random password of 32 URL-safe characters. */
    static String newPassword() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not delete broker data " + directory, e);
        }
    }
}
