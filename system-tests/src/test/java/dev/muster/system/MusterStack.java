package dev.muster.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import dev.muster.local.LocalStack;
import dev.muster.local.LocalStackSettings;
import dev.muster.local.MusterService;
import dev.muster.simulator.cluster.FleetApiServer;
import dev.muster.simulator.cluster.SimulatedCluster;

/**
 * All of Muster on this machine, as {@code ./muster up} runs it (the same {@link LocalStack}), in a
 * temporary home, on free ports, logging beside the build output.
 */
final class MusterStack implements AutoCloseable {

    final FleetApiServer fleet;
    private final LocalStack stack;

    private MusterStack(LocalStack stack) {
        this.stack = stack;
        this.fleet = stack.fleet();
    }

    static MusterStack start(Path membersSpec) throws IOException {
        return start(membersSpec, Map.of());
    }

    /** With more system properties for some services, e.g. a shorter reservation timeout. */
    static MusterStack start(Path membersSpec, Map<MusterService, Map<String, String>> properties) throws IOException {
        return start(membersSpec, properties, null);
    }

    /** On a secured broker (TLS, SCRAM, ACLs) with these submitters, each with the namespaces it may use. */
    static MusterStack startSecured(Path membersSpec, Map<MusterService, Map<String, String>> properties,
                                    Map<String, java.util.Set<String>> submitters) throws IOException {
        return start(membersSpec, properties, new LocalStackSettings.SecuredKafka(submitters));
    }

    private static MusterStack start(Path membersSpec, Map<MusterService, Map<String, String>> properties,
                                     LocalStackSettings.SecuredKafka secured) throws IOException {
        Path home = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "muster-");
        LocalStackSettings settings = new LocalStackSettings(home, membersSpec, Path.of(".."), 0, Duration.ofSeconds(90), properties, secured);
        return new MusterStack(LocalStack.start(settings, step -> System.out.println("starting " + step)));
    }

    /** A Kafka client of the broker's super user: an operator's, which may write every topic. */
    dev.muster.testing.kafka.JobEventClient kafkaAsOperator() {
        return new dev.muster.testing.kafka.JobEventClient(stack.kafkaAdminSettings());
    }

    /** A Kafka client of a submitter of a secured stack. */
    dev.muster.testing.kafka.JobEventClient kafkaAs(String submitter) throws IOException {
        return new dev.muster.testing.kafka.JobEventClient(stack.kafkaClientSettings(submitter));
    }

    /** The submitter's Kafka client properties file, as {@code kubectl muster submit --kafka-config} takes it. */
    Path kafkaClientConfig(String submitter) {
        return stack.kafkaClientConfig(submitter);
    }

    /** Every password of the stack's Kafka users (services, submitters, the super user): what no log may hold. */
    java.util.List<String> kafkaPasswords() throws IOException {
        java.util.List<String> passwords = new java.util.ArrayList<>();
        for (Path folder : java.util.List.of(stack.settings().kafkaClients(), stack.settings().home().resolve("secrets"))) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (java.util.stream.Stream<Path> files = Files.list(folder)) {
                for (Path file : files.toList()) {
                    java.util.Properties properties = new java.util.Properties();
                    try (java.io.Reader reader = Files.newBufferedReader(file)) {
                        properties.load(reader);
                    }
                    properties.forEach((name, value) -> {
                        java.util.regex.Matcher password = java.util.regex.Pattern.compile("password=\"([^\"]+)\"").matcher(value.toString());
                        if (password.find()) {
                            passwords.add(password.group(1));
                        }
                    });
                }
            }
        }
        if (stack.broker().secured()) {
            passwords.add(stack.broker().adminCredentials().password());
        }
        return passwords;
    }

    /** Where the stack's Kafka broker listens. */
    String bootstrapServers() {
        return stack.broker().bootstrapServers();
    }

    /** A service's HTTP base address. */
    String url(MusterService service) {
        return "http://127.0.0.1:" + stack.port(service);
    }

    /** The running process of one service, to kill as a crash would. */
    dev.muster.testing.service.ServiceProcess service(MusterService service) {
        return stack.service(service);
    }

    SimulatedCluster member(String name) {
        return stack.member(name);
    }

    /** Every log the stack's processes wrote (the services'), and the broker's segments of every topic: what none may hold. */
    java.util.List<Path> logFiles() throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(stack.settings().home())) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log") && Files.isRegularFile(file)).toList();
        }
    }

    /** Where each service's log is, for a failure message. */
    String logs() {
        return "queue " + stack.service(MusterService.QUEUE).log() + ", placement " + stack.service(MusterService.PLACEMENT).log()
                + ", status sync " + stack.service(MusterService.STATUS_SYNC).log();
    }

    @Override
    public void close() {
        stack.close();
    }
}
