package dev.muster.fleetclient.watch;

import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/** Readiness is DOWN while a Kubernetes watch the service depends on does not run, naming it and why. */
@Readiness
@ApplicationScoped
public class WatchReadiness implements HealthCheck {

    private final Watches watches;

    WatchReadiness(Watches watches) {
        this.watches = watches;
    }

    @Override
    public HealthCheckResponse call() {
        List<WatchStatus> statuses = watches.statuses();
        HealthCheckResponseBuilder response = HealthCheckResponse.named("Kubernetes watches");
        boolean up = true;
        for (WatchStatus status : statuses) {
            response.withData(status.name(), status.watching() ? "watching" : status.problem());
            up &= status.watching();
        }
        return response.status(up).build();
    }
}
