package dev.muster.runtime.views;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.muster.model.json.Kubeconfig;

/**
 * Who may read a service's views: viewers known by the SHA-256 of their bearer token ({@link Kubeconfig#tokenDigest}) (the token a kubeconfig's user
 * has, which {@code kubectl muster} sends), each seeing the jobs of its own namespaces. With no viewer configured the
 * views are open, as on {@code ./muster up}, where they listen on loopback only.
 */
public final class ViewAccess {

    /** What a request's {@code Authorization} header comes to. */
    public sealed interface Verdict {
    }

    public record Allowed(Viewer viewer) implements Verdict {
    }

    public record Refused(String reason) implements Verdict {
    }

    private static final Pattern SHA_256 = Pattern.compile("[0-9a-f]{64}");
    private static final String BEARER = "bearer ";

    private record Known(byte[] digest, Viewer viewer) {
    }

    private final List<Known> viewers;

    private ViewAccess(List<Known> viewers) {
        this.viewers = List.copyOf(viewers);
    }

    /** Views anyone who reaches them may read. */
    public static ViewAccess open() {
        return new ViewAccess(List.of());
    }

    /**
     * @param viewers by name, the hex SHA-256 of each one's token and the namespaces it may see
     * @throws IllegalArgumentException naming the viewer, when a digest is not 64 hex digits or no namespace is given
     */
    public static ViewAccess of(Map<String, Map.Entry<String, Set<String>>> viewers) {
        List<Known> known = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        viewers.forEach((name, setting) -> {
            String where = "muster.views.viewers.\"" + name + "\"";
            String digest = setting.getKey() == null ? "" : setting.getKey().toLowerCase(Locale.ROOT);
            if (!SHA_256.matcher(digest).matches()) {
                problems.add(where + ".token-sha256: must be the token's SHA-256 as 64 hex digits (sha256sum), got " + digest.length() + " characters");
            }
            if (setting.getValue() == null || setting.getValue().isEmpty()) {
                problems.add(where + ".namespaces: name at least one namespace, or * for all");
            }
            if (problems.isEmpty()) {
                known.add(new Known(HexFormat.of().parseHex(digest), new Viewer(name, setting.getValue())));
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new ViewAccess(known);
    }

    /** Whether the views need no credentials. */
    public boolean isOpen() {
        return viewers.isEmpty();
    }

    /** How many viewers are configured. */
    public int viewers() {
        return viewers.size();
    }

    /** Who sends this {@code Authorization} header (null when the request has none), or why they may not read. */
    public Verdict authenticate(String authorization) {
        if (isOpen()) {
            return new Allowed(Viewer.ANYONE);
        }
        if (authorization == null || authorization.isBlank()) {
            return new Refused("Muster's views need credentials: send \"Authorization: Bearer <token>\" (kubectl muster sends the"
                    + " token of the kubeconfig's user)");
        }
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return new Refused("Muster's views take a bearer token only (\"Authorization: Bearer <token>\")");
        }
        byte[] digest = HexFormat.of().parseHex(Kubeconfig.tokenDigest(authorization.substring(BEARER.length()).trim()));
        Viewer found = null;
        // Every digest compared in constant time, so the time taken tells nothing of how close a guess came.
        for (Known viewer : viewers) {
            if (MessageDigest.isEqual(viewer.digest(), digest)) {
                found = viewer.viewer();
            }
        }
        return found == null ? new Refused("the bearer token is not a viewer's of this service (muster.views.viewers)") : new Allowed(found);
    }
}
