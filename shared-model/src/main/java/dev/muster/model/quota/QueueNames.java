package dev.muster.model.quota;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Names the Kube Queue {@code Queue} of a quota node the way the seed shows them: the node names from the
 * root joined by {@code -}, then a five-character suffix ({@code root-kdzw7}, {@code root-child-2-v5zxz}).
 * <p>
 * The suffix is derived from the path, not random, so every service and every restart names a node's
 * queue alike without asking the API server.
 */
public final class QueueNames {

    // The alphabet Kubernetes uses for generateName suffixes: no vowels, no look-alike digits.
    private static final char[] ALPHABET = "bcdfghjklmnpqrstvwxz2456789".toCharArray();
    private static final int SUFFIX_LENGTH = 5;

    private QueueNames() {
    }

    /** The queue name of the node reached by these node names, root first. */
    public static String of(List<String> path) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a quota node path has at least the root");
        }
        return String.join("-", path) + "-" + suffix(String.join("/", path));
    }

    /** The queue name of every node of the tree under {@code root}, by node name, root first. */
    public static Map<String, String> ofTree(QuotaNode root) {
        Map<String, String> names = new LinkedHashMap<>();
        addNames(root, List.of(), names);
        return names;
    }

    private static void addNames(QuotaNode node, List<String> parentPath, Map<String, String> names) {
        List<String> path = new ArrayList<>(parentPath);
        path.add(node.name());
        names.put(node.name(), of(path));
        node.childNodes().forEach(child -> addNames(child, path, names));
    }

    private static String suffix(String key) {
        byte[] digest = sha256(key);
        StringBuilder suffix = new StringBuilder(SUFFIX_LENGTH);
        for (int i = 0; i < SUFFIX_LENGTH; i++) {
            suffix.append(ALPHABET[Byte.toUnsignedInt(digest[i]) % ALPHABET.length]);
        }
        return suffix.toString();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
