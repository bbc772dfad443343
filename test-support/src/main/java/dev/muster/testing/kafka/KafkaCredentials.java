package dev.muster.testing.kafka;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a client needs to reach a secured {@link KafkaBroker}: a SCRAM-SHA-512 user over TLS, trusting the broker's
 * certificate. {@link #toString()} never shows the password.
 *
 * @param username           the SCRAM user, the client's principal {@code User:<username>} in ACLs
 * @param password           its password
 * @param truststore         a PKCS12 file holding the broker's certificate
 * @param truststorePassword the truststore's password
 */
public record KafkaCredentials(String username, String password, Path truststore, String truststorePassword) {

    /** The SASL mechanism every secured broker and client here uses. */
    public static final String MECHANISM = "SCRAM-SHA-512";

    public KafkaCredentials {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(truststore, "truststore");
        Objects.requireNonNull(truststorePassword, "truststorePassword");
    }

    /** Kafka client settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.truststore.*}) for this user. */
    public Map<String, String> clientProperties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("security.protocol", "SASL_SSL");
        properties.put("sasl.mechanism", MECHANISM);
        properties.put("sasl.jaas.config", jaasConfig("org.apache.kafka.common.security.scram.ScramLoginModule", username, password));
        properties.put("ssl.truststore.type", "PKCS12");
        properties.put("ssl.truststore.location", truststore.toString());
        properties.put("ssl.truststore.password", truststorePassword);
        return properties;
    }

    /** These credentials with another password, e.g. a wrong one. */
    public KafkaCredentials withPassword(String other) {
        return new KafkaCredentials(username, other, truststore, truststorePassword);
    }

    static String jaasConfig(String loginModule, String username, String password) {
        return loginModule + " required username=\"" + username + "\" password=\"" + password + "\";";
    }

    @Override
    public String toString() {
        return "KafkaCredentials[" + username + " over TLS, trusting " + truststore + "]";
    }
}
