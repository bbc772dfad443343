package dev.muster.statussync.kubernetes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts the seed's simulated member clusters ({@code deploy/local/seed-fleet.yaml}) for a Quarkus test and
 * configures the service to watch each one by its kubeconfig, probing every half second.
 */
public final class SimulatedMembersTestResource implements QuarkusTestResourceLifecycleManager {

    /** Marks the test's {@link SimulatedFleet} field. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectSimulatedMembers {
    }

    private SimulatedFleet fleet;

    @Override
    public Map<String, String> start() {
        try {
            Path kubeconfigs = Files.createTempDirectory("muster-members");
            fleet = SimulatedFleet.start(FleetSpec.read(Path.of("..", "deploy", "local", "seed-fleet.yaml")), kubeconfigs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> config = new HashMap<>();
        for (SimulatedCluster cluster : fleet.clusters()) {
            config.put("muster.status-sync.members." + cluster.name() + ".kubeconfig", cluster.kubeconfig().toString());
        }
        config.put("muster.status-sync.health-interval", "500ms");
        return config;
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(fleet, new TestInjector.AnnotatedAndMatchesType(InjectSimulatedMembers.class, SimulatedFleet.class));
    }

    @Override
    public void stop() {
        if (fleet != null) {
            fleet.close();
        }
    }
}
