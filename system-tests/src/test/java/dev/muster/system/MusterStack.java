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
        Path home = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "muster-");
        LocalStackSettings settings = new LocalStackSettings(home, membersSpec, Path.of(".."), 0, Duration.ofSeconds(90), properties);
        return new MusterStack(LocalStack.start(settings, step -> System.out.println("starting " + step)));
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
