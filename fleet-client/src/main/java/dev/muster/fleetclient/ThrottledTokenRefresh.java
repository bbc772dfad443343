package dev.muster.fleetclient;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.OAuthTokenProvider;

/**
 * The bearer token of a Kubernetes client configuration, read again from where the configuration came from at
 * most once a minute.
 * <p>
 * fabric8 re-reads a configuration (its kubeconfig file, the environment, the service account token) to refresh
 * its token a minute after the last token it found; a configuration with no token at all (client certificates, or
 * none, as on the simulated members) never finds one, so from then on it is read again before every request.
 * Under load that was the largest single cost of status sync's member probes and fleet writes. With this
 * provider the client asks it for the token instead, and it reads its source on its own schedule.
 */
public final class ThrottledTokenRefresh implements OAuthTokenProvider {

    /** As fabric8's own refresh interval. */
    static final Duration INTERVAL = Duration.ofMinutes(1);

    private final Supplier<Config> source;
    private final Clock clock;
    private String token;
    private Instant readAt;

    ThrottledTokenRefresh(Config current, Supplier<Config> source, Clock clock) {
        this.source = source;
        this.clock = clock;
        this.token = tokenOf(current);
        this.readAt = clock.instant();
    }

    /**
     * Gives the configuration this provider, unless the user set a token (fabric8 never refreshes that one) or a
     * provider of their own.
     *
     * @param source reads the configuration again from where it came from
     */
    public static Config install(Config config, Supplier<Config> source) {
        if (config.getOauthToken() == null && config.getOauthTokenProvider() == null) {
            config.setOauthTokenProvider(new ThrottledTokenRefresh(config, source, Clock.systemUTC()));
        }
        return config;
    }

    @Override
    public synchronized String getToken() {
        Instant now = clock.instant();
        if (!now.isBefore(readAt.plus(INTERVAL))) {
            readAt = now;
            try {
                token = tokenOf(source.get());
            } catch (RuntimeException e) {
                // The source cannot be read now (a kubeconfig being replaced): keep the token, try again next interval.
            }
        }
        return token;
    }

    private static String tokenOf(Config config) {
        return config.getOauthToken() != null ? config.getOauthToken() : config.getAutoOAuthToken();
    }
}
