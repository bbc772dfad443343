package dev.muster.testing.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.utils.AppInfoParser;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.utility.DockerImageName;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;

import dev.muster.kafka.broker.BrokerRuntime;

/**
 * A broker node run in Apache Kafka's own image by Testcontainers, from the very properties file a child JVM would
 * use: the broker's data folder is mounted at the same path, and its client port is published on the same loopback
 * port. So a node killed or stopped and launched again keeps its address and its log, as the reliability tests need,
 * and a secured broker finds its key stores where the properties say. Testcontainers' own {@code KafkaContainer}
 * chooses its listeners and ports per start and keeps its data inside the container, so it can do neither.
 */
final class BrokerContainer implements BrokerProcess {

    /** The system property naming the image; by default {@code apache/kafka} at the version of the Kafka clients. */
    static final String IMAGE_PROPERTY = "muster.kafka.image";
    private static final String KAFKA_HOME = "/opt/kafka";

    private final GenericContainer<?> container;

    private BrokerContainer(GenericContainer<?> container) {
        this.container = container;
    }

    /** Starts a container running the node on {@code configFile}, its output appended to {@code logFile}. */
    static BrokerContainer launch(KafkaBrokerConfig config, Path dataDirectory, Path configFile, String clusterId,
                                  Path logFile, int brokerPort) throws IOException {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            throw new KafkaBrokerException(BrokerLauncher.PROPERTY + "=" + BrokerLauncher.CONTAINER
                    + " needs a Docker engine, and Testcontainers finds none (DOCKER_HOST, /var/run/docker.sock,"
                    + " ~/.testcontainers.properties); run without -Ptestcontainers to use the child-JVM broker");
        }
        String user = Files.getAttribute(dataDirectory, "unix:uid") + ":" + Files.getAttribute(dataDirectory, "unix:gid");
        String data = dataDirectory.toString();
        GenericContainer<?> container = new GenericContainer<>(image())
                .withFileSystemBind(data, data, BindMode.READ_WRITE)
                .withEnv(Map.of(
                        "KAFKA_HEAP_OPTS", String.join(" ", heapOptions(config.jvmOptions(), true)),
                        "KAFKA_JVM_PERFORMANCE_OPTS", String.join(" ", heapOptions(config.jvmOptions(), false)),
                        "LOG_DIR", dataDirectory.resolve("server-logs").toString()))
                .withCreateContainerCmdModifier(create -> {
                    create.withUser(user);
                    create.withEntrypoint("sh", "-c", startScript(KAFKA_HOME, configFile, clusterId, logFile));
                    create.withExposedPorts(ExposedPort.tcp(brokerPort));
                    create.getHostConfig().withPortBindings(
                            new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", brokerPort), ExposedPort.tcp(brokerPort)));
                })
                // KafkaBroker waits until the node answers an admin client, as it does for a child JVM.
                .waitingFor(new AbstractWaitStrategy() {
                    @Override
                    protected void waitUntilReady() {
                    }
                });
        container.start();
        return new BrokerContainer(container);
    }

    static DockerImageName image() {
        return DockerImageName.parse(System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion()));
    }

    /**
     * The image's scripts, with what {@link dev.muster.kafka.broker.BrokerMain} does in a child JVM: format the storage
     * on first start (with the secured broker's extra arguments, which stay off the container's configuration), then
     * run the node. Globbing is off because a SCRAM argument holds brackets.
     */
    static String startScript(String kafkaHome, Path configFile, String clusterId, Path logFile) {
        Path formatArguments = configFile.resolveSibling(BrokerRuntime.FORMAT_ARGUMENTS);
        return String.join("\n",
                "set -ef",
                "exec >>'" + logFile + "' 2>&1",
                "logs=$(sed -n 's/^log.dirs=//p' '" + configFile + "')",
                "if [ ! -f \"$logs/meta.properties\" ]; then",
                "  extra=''; [ -f '" + formatArguments + "' ] && extra=$(cat '" + formatArguments + "')",
                "  " + kafkaHome + "/bin/kafka-storage.sh format --cluster-id '" + clusterId + "' --config '" + configFile
                        + "' --standalone $extra",
                "fi",
                "exec " + kafkaHome + "/bin/kafka-server-start.sh '" + configFile + "'");
    }

    /** The heap settings ({@code -Xms}, {@code -Xmx}) when {@code heap}, else the rest, as Kafka's scripts take them. */
    static List<String> heapOptions(List<String> jvmOptions, boolean heap) {
        return jvmOptions.stream().filter(option -> (option.startsWith("-Xms") || option.startsWith("-Xmx")) == heap).toList();
    }

    @Override
    public boolean isAlive() {
        return container.isRunning();
    }

    @Override
    public long pid() {
        Long pid = inspect().getState().getPidLong();
        return pid == null || pid == 0 ? -1 : pid;
    }

    @Override
    public void stop(Duration timeout) {
        if (isAlive()) {
            container.getDockerClient().stopContainerCmd(container.getContainerId()).withTimeout((int) timeout.toSeconds()).exec();
        }
        container.stop();
    }

    @Override
    public void kill(Duration timeout) {
        if (isAlive()) {
            container.getDockerClient().killContainerCmd(container.getContainerId()).exec();
        }
        container.stop();
    }

    /** Docker's own wait for the container to stop, given up after the moment: it returns as soon as the node exits. */
    @Override
    public void pause(Duration moment) {
        try (WaitContainerResultCallback exit = container.getDockerClient().waitContainerCmd(container.getContainerId())
                .exec(new WaitContainerResultCallback())) {
            exit.awaitCompletion(moment.toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException e) {
            throw new KafkaBrokerException("cannot watch the broker container", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while waiting for the broker", e);
        }
    }

    @Override
    public String exitDescription() {
        try {
            Long status = inspect().getState().getExitCodeLong();
            return "exited with status " + status;
        } catch (RuntimeException e) {
            return "is gone (" + e.getMessage() + ")";
        }
    }

    private InspectContainerResponse inspect() {
        return container.getDockerClient().inspectContainerCmd(container.getContainerId()).exec();
    }
}
