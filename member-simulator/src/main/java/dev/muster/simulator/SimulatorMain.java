package dev.muster.simulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.muster.model.json.MusterJson;
import dev.muster.model.validation.InvalidObjectException;
import dev.muster.simulator.admin.AdminServer;
import dev.muster.simulator.cluster.SimulatedCluster;
import dev.muster.simulator.cluster.SimulatedFleet;
import dev.muster.simulator.spec.FleetSpec;

/**
 * Runs the simulated member clusters of a spec file as a process, with the admin API, until stopped.
 * <pre>
 * java -jar member-simulator.jar --spec deploy/local/fleet.yaml --kubeconfigs target/members
 *      [--admin-port 0] [--time-speed 60] [--exit-with-parent]
 * </pre>
 * When every cluster is up it writes {@code simulator.json} (admin address, each cluster's API address and
 * kubeconfig) into the kubeconfig folder and prints one line starting {@code muster-simulator ready}.
 */
public final class SimulatorMain {

    private SimulatorMain() {
    }

    public static void main(String[] args) throws Exception {
        // One line per event for operators (the simulated clusters quiet their mock API servers' per-request lines).
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %4$s %3$s: %5$s%6$s%n");
        Map<String, String> options;
        try {
            options = options(args);
        } catch (IllegalArgumentException e) {
            System.err.println("muster-simulator: " + e.getMessage());
            System.err.println("usage: muster-simulator --spec FILE --kubeconfigs DIR [--admin-port N] [--time-speed X] [--exit-with-parent]");
            System.exit(2);
            return;
        }
        FleetSpec spec;
        try {
            spec = FleetSpec.read(Path.of(options.get("--spec")));
            if (options.containsKey("--time-speed")) {
                spec = spec.withTimeSpeed(Double.parseDouble(options.get("--time-speed")));
            }
        } catch (InvalidObjectException | IOException | NumberFormatException e) {
            System.err.println("muster-simulator: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.containsKey("--exit-with-parent")) {
            // Never outlive whoever started us (a test JVM, `muster up`).
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
        }
        Path folder = Path.of(options.get("--kubeconfigs"));
        long started = System.nanoTime();
        SimulatedFleet fleet = SimulatedFleet.start(spec, folder);
        AdminServer admin = AdminServer.start(fleet, Integer.parseInt(options.getOrDefault("--admin-port", "0")));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            admin.close();
            fleet.close();
            stopped.countDown();
        }, "simulator-shutdown"));
        Map<String, Object> endpoints = new LinkedHashMap<>();
        endpoints.put("admin", admin.url().toString());
        Map<String, Object> clusters = new LinkedHashMap<>();
        for (SimulatedCluster cluster : fleet.clusters()) {
            clusters.put(cluster.name(), Map.of("server", cluster.url(), "kubeconfig", cluster.kubeconfig().toAbsolutePath().toString()));
        }
        endpoints.put("clusters", clusters);
        Files.write(folder.resolve("simulator.json"), MusterJson.json().writerWithDefaultPrettyPrinter().writeValueAsBytes(endpoints));
        System.out.println("muster-simulator ready in " + (System.nanoTime() - started) / 1_000_000 + " ms: admin " + admin.url()
                + ", clusters " + clusters.keySet() + ", kubeconfigs in " + folder.toAbsolutePath());
        stopped.await();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            switch (name) {
                case "--exit-with-parent" -> options.put(name, "");
                case "--spec", "--kubeconfigs", "--admin-port", "--time-speed" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(name + " needs a value");
                    }
                    options.put(name, args[++i]);
                }
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        for (String required : new String[] {"--spec", "--kubeconfigs"}) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException(required + " is required");
            }
        }
        return options;
    }
}
