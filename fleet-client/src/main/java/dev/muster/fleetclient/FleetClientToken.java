package dev.muster.fleetclient;

import jakarta.inject.Singleton;

import io.fabric8.kubernetes.client.Config;
import io.quarkus.kubernetes.client.KubernetesConfigCustomizer;

/** Every service's fleet client reads its token again at most once a minute, not before every request (see {@link ThrottledTokenRefresh}). */
@Singleton
public class FleetClientToken implements KubernetesConfigCustomizer {

    @Override
    public void customize(Config config) {
        ThrottledTokenRefresh.install(config, config::refresh);
    }
}
