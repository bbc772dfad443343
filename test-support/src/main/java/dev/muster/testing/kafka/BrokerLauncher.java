package dev.muster.testing.kafka;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a {@link KafkaBroker} node runs. Tests choose with the system property {@value #PROPERTY} (the Maven profile
 * {@code testcontainers} sets it); the local stack always runs its broker as a child JVM.
 */
public enum BrokerLauncher {

    /** A child JVM on this host, from the Maven Central jars the {@code kafka-broker} module resolved: needs nothing else. */
    CHILD_JVM("child-jvm", "127.0.0.1"),
    /**
     * Apache Kafka's own image ({@value BrokerContainer#IMAGE_PROPERTY}) in a container started by Testcontainers:
     * needs a Docker engine.
     */
    CONTAINER("container", "0.0.0.0");

    /** The system property that chooses the launcher of the brokers tests start. */
    public static final String PROPERTY = "muster.kafka.broker";

    private final String name;
    private final String listenerHost;

    BrokerLauncher(String name, String listenerHost) {
        this.name = name;
        this.listenerHost = listenerHost;
    }

    /**
     * The address the broker's listeners bind: loopback for a child JVM; every interface in a container, whose own
     * loopback the host's published port does not reach. Clients are always told {@code 127.0.0.1}.
     */
    String listenerHost() {
        return listenerHost;
    }

    /** The launcher {@value #PROPERTY} names; {@link #CHILD_JVM} when it is not set. */
    public static BrokerLauncher fromSystemProperties() {
        return named(System.getProperty(PROPERTY, CHILD_JVM.name));
    }

    static BrokerLauncher named(String value) {
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(launcher -> launcher.name.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(PROPERTY + " is \"" + value + "\"; it must be one of "
                        + Arrays.stream(values()).map(launcher -> launcher.name).toList()));
    }

    @Override
    public String toString() {
        return name;
    }
}
