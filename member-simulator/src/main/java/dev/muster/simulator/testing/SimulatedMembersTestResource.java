package dev.muster.simulator.testing;

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

import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts simulated member clusters for a Quarkus test of a Muster service and points the service at each one's
 * kubeconfig. Init arguments: {@code spec}, the spec file (default {@code ../deploy/local/seed-fleet.yaml}, from a
 * service module); {@code prefix}, the configuration prefix of the service's member map (e.g.
 * {@code muster.status-sync.members}), under which {@code <cluster>.kubeconfig} is set; and any other
 * argument is passed on as configuration. Tests reach the fleet through a field marked {@link InjectSimulatedMembers}.
 */
public final class SimulatedMembersTestResource implements QuarkusTestResourceLifecycleManager {

    public static final String SPEC = "spec";
    public static final String PREFIX = "prefix";

    /** Marks the test's {@link SimulatedFleet} field. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.FIELD)
    public @interface InjectSimulatedMembers {
    }

    private final Map<String, String> extra = new HashMap<>();
    private String spec = "../deploy/local/seed-fleet.yaml";
    private String prefix;
    private SimulatedFleet fleet;

    @Override
    public void init(Map<String, String> initArgs) {
        extra.putAll(initArgs);
        spec = extra.getOrDefault(SPEC, spec);
        prefix = extra.remove(PREFIX);
        extra.remove(SPEC);
        if (prefix == null) {
            throw new IllegalArgumentException(getClass().getSimpleName() + " needs the init argument " + PREFIX);
        }
    }

    @Override
    public Map<String, String> start() {
        try {
            fleet = SimulatedFleet.start(FleetSpec.read(Path.of(spec)), Files.createTempDirectory("muster-members"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> config = new HashMap<>(extra);
        config.putAll(fleet.memberSettings(prefix));
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
