package dev.muster.testing.kafka;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A broker's TLS material, made with the JDK's own {@code keytool}: a self-signed certificate for 127.0.0.1 and
 * localhost in a PKCS12 keystore, and a truststore holding just that certificate for its clients. Made once per data
 * folder and kept there, so a restarted broker presents the certificate its clients already trust.
 */
final class BrokerTls {

    private final Path keystore;
    private final Path truststore;
    private final String password;

    private BrokerTls(Path keystore, Path truststore, String password) {
        this.keystore = keystore;
        this.truststore = truststore;
        this.password = password;
    }

    /** The material in {@code folder}, made there first if it is not. */
    static BrokerTls in(Path folder, String password) throws IOException {
        Path keystore = folder.resolve("broker.p12");
        Path truststore = folder.resolve("truststore.p12");
        if (!Files.exists(truststore)) {
            Path certificate = folder.resolve("broker.crt");
            keytool("-genkeypair", "-alias", "broker", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "30",
                    "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                    "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password);
            keytool("-exportcert", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", password, "-file", certificate.toString());
            keytool("-importcert", "-noprompt", "-alias", "broker", "-file", certificate.toString(),
                    "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass", password);
        }
        return new BrokerTls(keystore, truststore, password);
    }

    Path keystore() {
        return keystore;
    }

    Path truststore() {
        return truststore;
    }

    String password() {
        return password;
    }

    private static void keytool(String... arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new KafkaBrokerException("keytool " + arguments[0] + " failed: " + output.strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while making the broker's certificate", e);
        }
    }
}
