package dev.muster.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

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
        } catch (IllegalArgumentException e) {
            System.err.println("muster up: " + e.getMessage());
            System.err.println("usage: ./muster up [--fleet FILE] [--port-base N] [--home DIR]");
            System.exit(USAGE);
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

    static LocalStackSettings parse(String[] args, LocalStackSettings defaults) {
        Path home = defaults.home();
        Path fleet = defaults.fleetSpec();
        int portBase = defaults.portBase();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            switch (option) {
                case "--home" -> home = Path.of(value);
                case "--fleet" -> {
                    fleet = Path.of(value);
                    if (!Files.isRegularFile(fleet)) {
                        throw new IllegalArgumentException("--fleet " + value + ": no such file");
                    }
                }
                case "--port-base" -> {
                    try {
                        portBase = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--port-base must be a number, got \"" + value + "\"");
                    }
                    if (portBase < 0 || portBase > LocalStackSettings.MAX_PORT_BASE) {
                        throw new IllegalArgumentException("--port-base must be between 0 and " + LocalStackSettings.MAX_PORT_BASE + ", got " + portBase);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + option);
            }
        }
        return new LocalStackSettings(home, fleet, defaults.repository(), portBase, defaults.serviceStart(), Map.of());
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
