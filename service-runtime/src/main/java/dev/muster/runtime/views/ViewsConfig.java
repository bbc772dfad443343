package dev.muster.runtime.views;

import java.util.Map;
import java.util.Set;

import io.smallrye.config.ConfigMapping;

/** Who may read the service's HTTP views ({@code muster.views.*}); the health and metrics endpoints stay open. */
@ConfigMapping(prefix = "muster.views")
public interface ViewsConfig {

    /**
     * The viewers, by name, e.g. {@code muster.views.viewers."team-a".token-sha256=<hex>} and
     * {@code muster.views.viewers."team-a".namespaces=team-a}. Default: none, and then the views need no credentials.
     */
    Map<String, ViewerConfig> viewers();

    /** One viewer. */
    interface ViewerConfig {

        /** The SHA-256 of its bearer token, as 64 hex digits ({@code printf %s "$TOKEN" | sha256sum}): the token itself is never configured. */
        String tokenSha256();

        /** The namespaces whose jobs it sees in the views; {@code *} for all. */
        Set<String> namespaces();
    }
}
