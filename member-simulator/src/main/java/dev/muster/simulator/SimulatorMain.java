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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Runs the simulated member clusters of a spec file as a process, with the admin API, until stopped.
 * <pre>
 * java -jar member-simulator.jar --spec deploy/local/fleet.yaml --kubeconfigs target/members
 *      [--admin-port 0] [--time-speed 60] [--exit-with-parent]
 * </pre>
 * {@code --help} says more; a command line it does not understand exits 64.
 * When every cluster is up it writes {@code simulator.json} (admin address, each cluster's API address and
 * kubeconfig) into the kubeconfig folder and prints one line starting {@code muster-simulator ready}.
 */
public final class SimulatorMain {

    static final int USAGE = 64;

    private SimulatorMain() {
    }

    /** What the simulator takes. */
    @Command(name = "muster-simulator", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Run the simulated member clusters of a spec file, with the admin API, until stopped.")
    static final class Options {

        @Option(names = "--spec", required = true, paramLabel = "FILE", description = "The fleet spec, e.g. deploy/local/fleet.yaml.")
        Path spec;

        @Option(names = "--kubeconfigs", required = true, paramLabel = "DIR",
                description = "Where each cluster's kubeconfig and simulator.json are written.")
        Path kubeconfigs;

        @Option(names = "--admin-port", paramLabel = "N", description = "The admin API's port; 0 for any free one (default).")
        int adminPort;

        @Option(names = "--time-speed", paramLabel = "X", description = "How much faster than real time simulated time runs (default: the spec's).")
        Double timeSpeed;

        @Option(names = "--exit-with-parent", description = "Exit when the process that started it does (a test JVM, ./muster up).")
        boolean exitWithParent;
    }

    public static void main(String[] args) throws Exception {
        // One line per event for operators (the simulated clusters quiet their mock API servers' per-request lines).
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %4$s %3$s: %5$s%6$s%n");
        Options options = new Options();
        CommandLine commandLine = new CommandLine(options);
        try {
            if (CommandLine.printHelpIfRequested(commandLine.parseArgs(args))) {
                return;
            }
        } catch (ParameterException e) {
            System.err.println("muster-simulator: " + e.getMessage());
            commandLine.usage(System.err);
            System.exit(USAGE);
            return;
        }
        FleetSpec spec;
        try {
            spec = FleetSpec.read(options.spec);
            if (options.timeSpeed != null) {
                spec = spec.withTimeSpeed(options.timeSpeed);
            }
        } catch (InvalidObjectException | IOException e) {
            System.err.println("muster-simulator: " + e.getMessage());
            System.exit(USAGE);
            return;
        }
        if (options.exitWithParent) {
            // Never outlive whoever started us (a test JVM, `muster up`).
            ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
        }
        Path folder = options.kubeconfigs;
        long started = System.nanoTime();
        SimulatedFleet fleet = SimulatedFleet.start(spec, folder);
        AdminServer admin = AdminServer.start(fleet, options.adminPort);
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
}
