package dev.muster.kubectl;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

import dev.muster.model.json.Kubeconfig;
import picocli.CommandLine.Option;

/**
 * How a command reaches Muster, as kubectl reaches an API server: the kubeconfig and its context give the credentials,
 * and the services are found by flag, else the environment, else the file the local stack writes beside the fleet's
 * kubeconfig, else the local stack's default ports.
 */
final class Connection {

    /** The file the local stack writes beside the fleet's kubeconfig, saying where its services listen. */
    static final String ENDPOINTS_FILE = "muster-endpoints.properties";
    static final String DEFAULT_STATUS_URL = "http://127.0.0.1:8083";
    static final String DEFAULT_QUEUE_URL = "http://127.0.0.1:8081";
    static final String DEFAULT_PLACEMENT_URL = "http://127.0.0.1:8082";
    static final String DEFAULT_KAFKA = "127.0.0.1:9092";

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Path to the kubeconfig file whose credentials are used (default: $KUBECONFIG, else ~/.kube/config).")
    String kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "The kubeconfig context whose user's credentials are used (default: its current context).")
    String context;

    @Option(names = "--status-url", paramLabel = "URL", description = "Status sync's views (default: $MUSTER_STATUS_URL, else the local stack's).")
    String statusUrl;

    @Option(names = "--queue-url", paramLabel = "URL", description = "The queue service's views (default: $MUSTER_QUEUE_URL, else the local stack's).")
    String queueUrl;

    @Option(names = "--placement-url", paramLabel = "URL", description = "Placement's views (default: $MUSTER_PLACEMENT_URL, else the local stack's).")
    String placementUrl;

    ViewsClient statusSync(Terminal terminal) throws CommandFailedException {
        return ViewsClient.statusSync(endpoint(terminal, statusUrl, "MUSTER_STATUS_URL", "status-sync", DEFAULT_STATUS_URL), token(terminal));
    }

    ViewsClient queue(Terminal terminal) throws CommandFailedException {
        return ViewsClient.queueService(endpoint(terminal, queueUrl, "MUSTER_QUEUE_URL", "queue", DEFAULT_QUEUE_URL), token(terminal));
    }

    ViewsClient placement(Terminal terminal) throws CommandFailedException {
        return ViewsClient.placement(endpoint(terminal, placementUrl, "MUSTER_PLACEMENT_URL", "placement", DEFAULT_PLACEMENT_URL), token(terminal));
    }

    /** Kafka's bootstrap servers: the flag, the environment, the local stack's endpoints file, or the local default. */
    String kafka(Terminal terminal, String flag) {
        return endpoint(terminal, flag, "MUSTER_KAFKA", "kafka", DEFAULT_KAFKA);
    }

    /** The kubeconfig in use: the flag, else {@code $KUBECONFIG}'s first file, else {@code ~/.kube/config}; none without a home. */
    Optional<Path> kubeconfig(Terminal terminal) {
        if (kubeconfig != null) {
            return Optional.of(Path.of(kubeconfig));
        }
        String fromEnvironment = terminal.environment().getOrDefault("KUBECONFIG", "").split(File.pathSeparator)[0];
        if (!fromEnvironment.isEmpty()) {
            return Optional.of(Path.of(fromEnvironment));
        }
        return Optional.ofNullable(terminal.environment().get("HOME")).map(home -> Path.of(home, ".kube", "config"));
    }

    /** The bearer token of the context's user: what Muster's views are asked with, as kubectl asks the API server. */
    private Optional<String> token(Terminal terminal) throws CommandFailedException {
        Optional<Path> file = kubeconfig(terminal);
        if (context != null && (file.isEmpty() || !Kubeconfig.hasContext(file.get(), context))) {
            throw new CommandFailedException("context \"" + context + "\" does not exist" + file.map(path -> " in " + path).orElse(""));
        }
        return file.flatMap(path -> Kubeconfig.bearerToken(path, context));
    }

    private String endpoint(Terminal terminal, String flag, String variable, String key, String fallback) {
        if (flag != null) {
            return flag;
        }
        if (terminal.environment().containsKey(variable)) {
            return terminal.environment().get(variable);
        }
        Optional<Path> endpoints = kubeconfig(terminal).map(file -> file.toAbsolutePath().resolveSibling(ENDPOINTS_FILE)).filter(Files::isRegularFile);
        if (endpoints.isPresent()) {
            try (Reader reader = Files.newBufferedReader(endpoints.get())) {
                Properties properties = new Properties();
                properties.load(reader);
                String value = properties.getProperty(key);
                if (value != null) {
                    return value;
                }
            } catch (IOException e) {
                terminal.err().println("warning: cannot read " + endpoints.get() + ": " + e.getMessage());
            }
        }
        return fallback;
    }
}
