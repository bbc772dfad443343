package dev.muster.testing.service;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import dev.muster.testing.net.LoopbackPorts;

/**
 * A packaged Muster service ({@code java -jar quarkus-run.jar}) run as its own process, as in production: for
 * tests that kill a service at an arbitrary moment and start it again.
 */
public final class ServiceProcess implements AutoCloseable {

    /**
     * Each service's heap ceiling. Status sync keeps every running job's member pods in its informer caches; at
     * 256 MiB, ten thousand running jobs (the end-to-end benchmark's run) left it collecting without pause.
     */
    private static final String MAX_HEAP = "-Xmx512m";
    /**
     * More JVM options for every service started, space-separated, from this system property. The build sets it for its
     * tests only (the C1 compiler alone: a service a test starts lives seconds to minutes, and boots faster without C2
     * competing for two cores); {@code ./muster up} and the benchmarks run the services with the JVM's defaults.
     */
    public static final String JVM_OPTIONS_PROPERTY = "muster.service.jvm-options";
    /** Processes started and not yet seen to exit: the JVM that started them takes them along when it ends. */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ServiceProcess::stopAll, "service-process-cleanup"));
    }

    private final Path jar;
    private final Map<String, String> properties;
    private final int port;
    private final Path log;
    private volatile Process process;
    /** How long a restart after an exit may take to be ready; null while exits are not followed by a restart. */
    private volatile Duration restartTimeout;
    private volatile boolean closed;

    private ServiceProcess(Path jar, Map<String, String> properties, int port, Path log) {
        this.jar = jar;
        this.properties = Map.copyOf(properties);
        this.port = port;
        this.log = log;
    }

    /** Starts the service with these system properties on a free HTTP port and waits until it is ready. */
    public static ServiceProcess start(Path jar, Map<String, String> properties, Duration timeout) throws IOException {
        int port = LoopbackPorts.reserve();
        // Beside the build output, so a failing test can point at it and a clean build removes it.
        Path logs = Files.createDirectories(Path.of("target", "service-logs"));
        return start(jar, properties, port, Files.createTempFile(logs, jar.getFileName() + "-", ".log"), timeout);
    }

    /** Starts the service with these system properties on the given HTTP port, its output in {@code log}, and waits until it is ready. */
    public static ServiceProcess start(Path jar, Map<String, String> properties, int port, Path log, Duration timeout) throws IOException {
        ServiceProcess service = launch(jar, properties, port, log);
        service.awaitReady(timeout);
        return service;
    }

    /**
     * Starts the service as {@link #start} does but returns at once, so that several services boot side by side; call
     * {@link #awaitReady} before using it.
     */
    public static ServiceProcess launch(Path jar, Map<String, String> properties, int port, Path log) throws IOException {
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " does not exist: package the service first (mvn package)");
        }
        ServiceProcess service = new ServiceProcess(jar, properties, port, log);
        service.spawn(Map.of());
        return service;
    }

    /** The running process's id, e.g. to read its memory; -1 when it is not running. */
    public long pid() {
        return process == null || !process.isAlive() ? -1 : process.pid();
    }

    /** The service's HTTP port. */
    public int port() {
        return port;
    }

    /** Starts the service again after {@link #kill()}, with the same settings. */
    public void startAgain(Duration timeout) throws IOException {
        startAgain(timeout, Map.of());
    }

    /**
     * Starts the service again with more system properties for this run only (a crash point, say); the next start has
     * the service's own settings again.
     */
    public void startAgain(Duration timeout, Map<String, String> forThisRun) throws IOException {
        Process started = spawn(forThisRun);
        awaitReady(timeout);
        if (restartTimeout != null) {
            restartWhenItExits(started);
        }
    }

    private Process spawn(Map<String, String> forThisRun) throws IOException {
        Map<String, String> settings = new java.util.LinkedHashMap<>(properties);
        settings.putAll(forThisRun);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(MAX_HEAP);
        for (String option : System.getProperty(JVM_OPTIONS_PROPERTY, "").trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.add("-Dquarkus.http.port=" + port);
        settings.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.add("-jar");
        command.add(jar.toString());
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Process started = process;
        RUNNING.add(started);
        started.onExit().thenRun(() -> RUNNING.remove(started));
        return started;
    }

    /**
     * From now on, the service is started again with its own settings whenever it exits, whatever the reason, as a
     * Deployment's pod is; until {@link #close()}. Not for tests that kill and start it themselves.
     */
    public ServiceProcess restartedOnExit(Duration timeout) {
        restartTimeout = timeout;
        restartWhenItExits(process);
        return this;
    }

    private void restartWhenItExits(Process watched) {
        watched.onExit().thenRun(() -> {
            if (closed || watched != process) {
                return;
            }
            try {
                startAgain(restartTimeout);
            } catch (IOException | RuntimeException e) {
                // Its log says why; a test waiting on the service fails at its own deadline.
                System.err.println("restarting " + jar + " failed: " + e);
            }
        });
    }

    /** Asks every service still running to stop, and kills those that have not within a few seconds. */
    private static void stopAll() {
        RUNNING.forEach(Process::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (Process running : RUNNING) {
            try {
                if (!running.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    running.destroyForcibly();
                }
            } catch (InterruptedException e) {
                running.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills the service at once (SIGKILL), as a crash would. */
    public void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Freezes the service (SIGSTOP), as a long garbage collection or a suspended VM would: it holds its connections and
     * answers nothing until {@link #resume()}.
     */
    public void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** Lets a paused service run on (SIGCONT), unaware of the time it lost. */
    public void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("the service does not run: nothing to send SIG" + name + " to");
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    /** Stops the service cleanly (SIGTERM), as an operator would; kills it if it has not exited at the deadline. */
    public void stop(Duration timeout) throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        }
    }

    /** Waits for the service to exit by itself (e.g. at a crash point); false if it still runs at the deadline. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        return process != null && process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Completes with the exit status when the process running now exits, whatever the reason; null when none was started. */
    public java.util.concurrent.CompletableFuture<Integer> exited() {
        Process running = process;
        return running == null ? java.util.concurrent.CompletableFuture.completedFuture(null) : running.onExit().thenApply(Process::exitValue);
    }

    /** Whether the process runs now. */
    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The service's combined output, for a failing test to show. */
    public Path log() {
        return log;
    }

    /**
     * The last warnings and errors the service logged, over all its runs, without the Kafka client's reconnection
     * noise: for a failing test's message, which is all a CI summary may show of it.
     */
    public String lastProblems(int count) {
        try (java.util.stream.Stream<String> lines = Files.lines(log, java.nio.charset.StandardCharsets.UTF_8)) {
            List<String> problems = lines.filter(line -> (line.contains(" WARN ") || line.contains(" ERROR ")) && !line.contains("NetworkClient"))
                    .map(line -> line.length() > 400 ? line.substring(0, 400) + "..." : line).toList();
            return String.join("\n", problems.subList(Math.max(0, problems.size() - count), problems.size()));
        } catch (IOException | java.io.UncheckedIOException e) {
            return "(its log " + log + " could not be read: " + e + ")";
        }
    }

    /** Waits until the service says it is ready; fails at once if it exits, and at the deadline if it is not ready by then. */
    public void awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest ready = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with status " + process.exitValue() + " before it was ready; see " + log);
            }
            try {
                if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
                process.onExit().get(200, TimeUnit.MILLISECONDS);
            } catch (IOException | java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // not up yet: ask again until the deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the service", e);
            }
        }
        throw new IllegalStateException("the service was not ready within " + timeout + "; see " + log);
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        kill();
    }
}
