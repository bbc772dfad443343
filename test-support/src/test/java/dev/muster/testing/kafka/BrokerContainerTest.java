package dev.muster.testing.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.muster.kafka.broker.BrokerRuntime;

/**
 * What runs inside a broker container, checked without a Docker engine: the start script is run by this host's
 * shell against stand-ins for the image's Kafka scripts that record how they are called.
 */
class BrokerContainerTest {

    private static final String CLUSTER_ID = "q1Sh-9_ISia_zwGINzRvyQ";

    @TempDir
    Path data;
    private Path kafkaHome;
    private Path calls;
    private Path config;
    private Path log;

    @BeforeEach
    void standInScripts() throws IOException {
        kafkaHome = Files.createDirectories(data.resolve("kafka"));
        calls = data.resolve("calls");
        config = data.resolve("server.properties");
        log = data.resolve("broker.log");
        Files.writeString(config, "log.dirs=" + data.resolve("logs") + "\n");
        Path bin = Files.createDirectories(kafkaHome.resolve("bin"));
        for (String script : List.of("kafka-storage.sh", "kafka-server-start.sh")) {
            Path file = bin.resolve(script);
            // One line per call, one argument per bracketed word, and something on the console for the log.
            Files.writeString(file, "#!/bin/sh\nprintf '%s' '" + script + "' >> '" + calls + "'\n"
                    + "for a in \"$@\"; do printf ' [%s]' \"$a\" >> '" + calls + "'; done\necho >> '" + calls + "'\n"
                    + "echo '" + script + " says hello'\n");
            file.toFile().setExecutable(true);
        }
    }

    @Test
    void aNewBrokerIsFormattedThenStartedAndItsOutputGoesToItsLog() throws Exception {
        run();

        assertThat(Files.readAllLines(calls)).containsExactly(
                "kafka-storage.sh [format] [--cluster-id] [" + CLUSTER_ID + "] [--config] [" + config + "] [--standalone]",
                "kafka-server-start.sh [" + config + "]");
        assertThat(Files.readString(log)).contains("kafka-storage.sh says hello", "kafka-server-start.sh says hello");
    }

    @Test
    void aSecuredBrokersFirstUserIsPassedToTheFormatAsTheChildJvmPassesIt() throws Exception {
        // Brackets would be a shell pattern: a file matching it must not replace the argument.
        Files.createFile(data.resolve("SCRAM-SHA-512=n"));
        Files.writeString(config.resolveSibling(BrokerRuntime.FORMAT_ARGUMENTS),
                "--add-scram\nSCRAM-SHA-512=[name=admin,password=Zm9v_YmFy-YmF6]\n");

        run();

        assertThat(Files.readAllLines(calls).get(0)).endsWith(
                "[--standalone] [--add-scram] [SCRAM-SHA-512=[name=admin,password=Zm9v_YmFy-YmF6]]");
    }

    @Test
    void aBrokerStartedAgainOnItsDataIsNotFormattedAgain() throws Exception {
        Files.createDirectories(data.resolve("logs"));
        Files.writeString(data.resolve("logs").resolve("meta.properties"), "cluster.id=" + CLUSTER_ID + "\n");

        run();

        assertThat(Files.readAllLines(calls)).containsExactly("kafka-server-start.sh [" + config + "]");
    }

    @Test
    void theImageIsApacheKafkasAtTheClientsVersionUnlessTheBuildNamesAnother() {
        String named = System.getProperty(BrokerContainer.IMAGE_PROPERTY);
        try {
            System.clearProperty(BrokerContainer.IMAGE_PROPERTY);
            assertThat(BrokerContainer.image().asCanonicalNameString())
                    .isEqualTo("apache/kafka:" + org.apache.kafka.common.utils.AppInfoParser.getVersion());
        } finally {
            if (named != null) {
                System.setProperty(BrokerContainer.IMAGE_PROPERTY, named);
            }
        }
    }

    @Test
    void aLauncherNobodyKnowsIsRefusedNamingTheChoices() {
        assertThat(BrokerLauncher.named(" Container ")).isEqualTo(BrokerLauncher.CONTAINER);
        assertThatThrownBy(() -> BrokerLauncher.named("docker"))
                .hasMessage("muster.kafka.broker is \"docker\"; it must be one of [child-jvm, container]");
    }

    @Test
    void theHeapSettingsGoWhereKafkasScriptsTakeThem() {
        assertThat(BrokerContainer.heapOptions(KafkaBrokerConfig.TEST_JVM_OPTIONS, true)).containsExactly("-Xms128m", "-Xmx768m");
        assertThat(BrokerContainer.heapOptions(KafkaBrokerConfig.TEST_JVM_OPTIONS, false)).doesNotContain("-Xms128m", "-Xmx768m")
                .contains("-XX:+UseSerialGC");
    }

    private void run() throws Exception {
        Process shell = new ProcessBuilder("sh", "-c", BrokerContainer.startScript(kafkaHome.toString(), config, CLUSTER_ID, log))
                .directory(data.toFile()).redirectErrorStream(true).start();
        assertThat(shell.waitFor(30, TimeUnit.SECONDS)).as("the start script ends once its stand-ins do").isTrue();
        assertThat(shell.exitValue()).as(new String(shell.getInputStream().readAllBytes())).isZero();
    }
}
