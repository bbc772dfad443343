package dev.muster.testing.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start a {@link KafkaBroker}.
 *
 * @param serverProperties broker settings applied over the single-node defaults (see {@link KafkaBroker})
 * @param jvmOptions       options of the broker's JVM
 * @param startTimeout     how long to wait for the broker to answer before giving up
 * @param dataRoot         where the broker's data folder is created; null for the system temporary folder
 * @param exitWithParent   whether the broker exits when the JVM that started it does (tests: yes)
 * @param secured          whether clients must come over TLS and authenticate with SCRAM-SHA-512, and are authorized
 *                         by ACLs (see {@link KafkaBroker#createUser(String)}); otherwise one plaintext listener, open to all
 * @param launcher         where the broker runs: a child JVM, or a container where a Docker engine is at hand
 */
public record KafkaBrokerConfig(Map<String, String> serverProperties, List<String> jvmOptions, Duration startTimeout,
                                Path dataRoot, boolean exitWithParent, boolean secured, BrokerLauncher launcher) {

    /** A small, fast-starting broker JVM: enough for tests on two cores. */
    public static final List<String> TEST_JVM_OPTIONS = List.of(
            "-Xms128m", "-Xmx768m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Djava.awt.headless=true");

    public KafkaBrokerConfig {
        serverProperties = Map.copyOf(serverProperties);
        jvmOptions = List.copyOf(jvmOptions);
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(launcher, "launcher");
    }

    /**
     * The configuration tests use: test JVM options, 60 s to start, a temporary data folder, and the launcher the
     * system property {@value BrokerLauncher#PROPERTY} names (a child JVM unless it says otherwise).
     */
    public static KafkaBrokerConfig forTests() {
        return new KafkaBrokerConfig(Map.of(), TEST_JVM_OPTIONS, Duration.ofSeconds(60), null, true, false,
                BrokerLauncher.fromSystemProperties());
    }

    /** This configuration, with TLS, SCRAM authentication and ACL authorization on. */
    public KafkaBrokerConfig securedWithTlsAndScram() {
        return new KafkaBrokerConfig(serverProperties, jvmOptions, startTimeout, dataRoot, exitWithParent, true, launcher);
    }

    /** This configuration with one more broker setting. */
    public KafkaBrokerConfig withServerProperty(String name, String value) {
        Map<String, String> properties = new LinkedHashMap<>(serverProperties);
        properties.put(name, value);
        return new KafkaBrokerConfig(properties, jvmOptions, startTimeout, dataRoot, exitWithParent, secured, launcher);
    }
}
