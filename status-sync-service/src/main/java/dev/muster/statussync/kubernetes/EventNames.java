package dev.muster.statussync.kubernetes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Names Kubernetes Events after the decision they record, so that recording it again finds the Event already there. */
final class EventNames {

    private EventNames() {
    }

    /** {@code object.<sixteen hex digits of the id's SHA-256>}: short, and a repeat of one decision finds its Event. */
    static String of(String objectName, String eventId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(eventId.getBytes(StandardCharsets.UTF_8));
            return objectName + "." + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
