package dev.muster.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ./muster up}: starts the local stack in the foreground, says where everything is, and stops it all on
 * Ctrl-C or {@code ./muster down} (SIGINT or SIGTERM; the exit status is then the signal's, 130 or 143). When it
 * does not start: 1 when something failed, 2 when it already runs, 3 when a port is taken, 64 for a wrong
 * command line.
 */
public final class MusterUp {

    static final int FAILED = 1;
    static final int ALREADY_RUNNING = 2;
    static final int PORT_IN_USE = 3;
    static final int USAGE = 64;
    /** Printed once everything is ready; scripts and tests wait for it. */
    static final String READY = "Muster is up";

    private MusterUp() {
    }

    public static void main(String[] args) throws InterruptedException {
        HarnessLogging.install();
        LocalStackSettings settings;
        try {
            settings = parse(args, LocalStackSettings.defaults(Path.of(System.getProperty("muster.repository", "")).toAbsolutePath()));
        } catch (ParameterException e) {
            System.err.println("muster up: " + e.getMessage());
            e.getCommandLine().usage(System.err);
            System.exit(USAGE);
            return;
        }
        if (settings == null) {
            new CommandLine(new Options()).usage(System.out);
            return;
        }
        Optional<Long> running = runningPid(settings.pidFile());
        if (running.isPresent()) {
            System.err.println("muster up: Muster is already running (pid " + running.get() + ", home " + settings.home()
                    + "); ./muster down stops it");
            System.exit(ALREADY_RUNNING);
            return;
        }
        try {
            Files.createDirectories(settings.home());
            Files.writeString(settings.pidFile(), Long.toString(ProcessHandle.current().pid()));
        } catch (IOException e) {
            System.err.println("muster up: cannot write " + settings.pidFile() + ": " + e.getMessage());
            System.exit(FAILED);
            return;
        }
        Instant begin = Instant.now();
        LocalStack stack;
        try {
            stack = LocalStack.start(settings, step -> System.out.printf("[%5.1fs] %s%n",
                    Duration.between(begin, Instant.now()).toMillis() / 1000.0, step));
        } catch (PortInUseException e) {
            forget(settings);
            System.err.println("muster up: " + e.getMessage());
            System.exit(PORT_IN_USE);
            return;
        } catch (IOException | RuntimeException e) {
            forget(settings);
            System.err.println("muster up: could not start: " + e.getMessage());
            System.exit(FAILED);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Stopping Muster ...");
            stack.close();
            forget(settings);
            System.out.println("Muster stopped.");
            stopped.countDown();
        }, "muster-down"));
        System.out.printf("%s after %.1f s. Ctrl-C here, or ./muster down from another terminal, stops it.%n%n%s%n", READY,
                Duration.between(begin, Instant.now()).toMillis() / 1000.0, stack.summary());
        System.out.println("Next: the seed walkthrough, in the README's quick start (kubectl apply -f examples/...).");
        stopped.await();
    }

    /** What {@code ./muster up} takes. */
    @Command(name = "./muster up", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Start Muster on this machine in the foreground: a Kafka broker, simulated member clusters, the fleet API and the"
                    + " three services. Ctrl-C here, or ./muster down from another terminal, stops it.",
            exitCodeListHeading = "%nExit status when it does not start:%n",
            exitCodeList = {"1:something failed", "2:Muster already runs", "3:a port is taken", "64:a command line it does not understand"})
    static final class Options {

        @Option(names = "--fleet", paramLabel = "FILE", description = "The member clusters to simulate (default: deploy/local/fleet.yaml).")
        Path fleet;

        @Option(names = "--port-base", paramLabel = "N",
                description = "The first of the ports the stack listens on, 0 for any free ones (default: 8080, the services at N+1..N+3).")
        Integer portBase;

        @Option(names = "--home", paramLabel = "DIR", description = "Where the stack keeps its kubeconfigs, logs and pid file (default: .muster).")
        Path home;
    }

    /** The settings a command line asks for; null when it asks for help. */
    static LocalStackSettings parse(String[] args, LocalStackSettings defaults) {
        Options options = new Options();
        CommandLine commandLine = new CommandLine(options);
        CommandLine.ParseResult parsed = commandLine.parseArgs(args);
        if (parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested()) {
            return null;
        }
        if (options.fleet != null && !Files.isRegularFile(options.fleet)) {
            throw new ParameterException(commandLine, "--fleet " + options.fleet + ": no such file");
        }
        if (options.portBase != null && (options.portBase < 0 || options.portBase > LocalStackSettings.MAX_PORT_BASE)) {
            throw new ParameterException(commandLine, "--port-base must be between 0 and " + LocalStackSettings.MAX_PORT_BASE + ", got "
                    + options.portBase);
        }
        return new LocalStackSettings(options.home != null ? options.home : defaults.home(), options.fleet != null ? options.fleet : defaults.fleetSpec(),
                defaults.repository(), options.portBase != null ? options.portBase : defaults.portBase(), defaults.serviceStart(), Map.of());
    }

    /** The pid in the file when that process still runs; a file left by a stack that died is stale. */
    static Optional<Long> runningPid(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(ProcessHandle::pid);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static void forget(LocalStackSettings settings) {
        try {
            Files.deleteIfExists(settings.pidFile());
        } catch (IOException e) {
            System.err.println("muster: could not remove " + settings.pidFile() + ": " + e.getMessage());
        }
    }
}
