package dev.muster.runtime.views;

import java.util.Objects;
import java.util.Set;

/**
 * Someone reading a service's views, and the namespaces whose jobs they may see there.
 *
 * @param name       the viewer's name in the configuration, for errors and logs (never its token)
 * @param namespaces the namespaces it may see; {@value #ALL_NAMESPACES} for all
 */
public record Viewer(String name, Set<String> namespaces) {

    public static final String ALL_NAMESPACES = "*";

    /** Whoever reaches views that need no credentials. */
    public static final Viewer ANYONE = new Viewer("anyone", Set.of(ALL_NAMESPACES));

    public Viewer {
        Objects.requireNonNull(name, "name");
        namespaces = Set.copyOf(namespaces);
    }

    /** Whether it may see what is in the namespace; what is in none (cluster-scoped) only a viewer of all namespaces sees. */
    public boolean maySee(String namespace) {
        return namespaces.contains(ALL_NAMESPACES) || namespace != null && namespaces.contains(namespace);
    }
}
