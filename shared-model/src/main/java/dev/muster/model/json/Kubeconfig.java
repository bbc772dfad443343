package dev.muster.model.json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/** What Muster reads of a kubeconfig file itself: the bearer token of the current context's user. */
public final class Kubeconfig {

    private Kubeconfig() {
    }

    /**
     * The {@code token} of the user of the {@code current-context} (or of {@code context}, when given); empty when the
     * file cannot be read or that user has none (a client certificate, an exec plugin).
     */
    public static Optional<String> bearerToken(Path file, String context) {
        JsonNode config;
        try {
            config = MusterJson.yaml().readTree(Files.readString(file));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        if (config == null) {
            return Optional.empty();
        }
        String contextName = context != null ? context : config.path("current-context").asText(null);
        String user = named(config.path("contexts"), contextName).path("context").path("user").asText(null);
        String token = named(config.path("users"), user).path("user").path("token").asText(null);
        return token == null || token.isBlank() ? Optional.empty() : Optional.of(token);
    }

    /** Whether the file names a context of this name; false when it cannot be read. */
    public static boolean hasContext(Path file, String context) {
        try {
            JsonNode config = MusterJson.yaml().readTree(Files.readString(file));
            return config != null && !named(config.path("contexts"), context).isMissingNode();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The SHA-256 of a bearer token, as 64 hex digits ({@code printf %s "$TOKEN" | sha256sum}): how a service is told a
     * viewer's token without being given the token.
     */
    public static String tokenDigest(String token) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static JsonNode named(JsonNode list, String name) {
        if (name != null && list.isArray()) {
            for (JsonNode entry : list) {
                if (name.equals(entry.path("name").asText(null))) {
                    return entry;
                }
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
