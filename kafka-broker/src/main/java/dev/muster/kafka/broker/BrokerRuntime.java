package dev.muster.kafka.broker;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * What it takes to start a broker JVM: the classpath of Kafka's jars plus this module, and the main class.
 * Safe to load anywhere: it refers to no Kafka class.
 */
public final class BrokerRuntime {

    /** The class to run in the broker JVM; see {@code BrokerMain} for its arguments. */
    public static final String MAIN_CLASS = "dev.muster.kafka.broker.BrokerMain";

    /** Beside the broker's properties file: more arguments for formatting its storage, one per line. */
    public static final String FORMAT_ARGUMENTS = "format.arguments";

    private static final String CLASSPATH_RESOURCE = "broker.classpath";

    private BrokerRuntime() {
    }

    /** The broker JVM's classpath: Kafka's jars as resolved by the build, then this module's classes. */
    public static String classpath() {
        String jars;
        try (InputStream in = BrokerRuntime.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(CLASSPATH_RESOURCE + " is missing: build the kafka-broker module with Maven");
            }
            jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jars + File.pathSeparator + ownLocation();
    }

    private static Path ownLocation() {
        CodeSource source = BrokerRuntime.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            throw new IllegalStateException("cannot locate the kafka-broker classes to run " + MAIN_CLASS);
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the kafka-broker classes to run " + MAIN_CLASS, e);
        }
    }
}
