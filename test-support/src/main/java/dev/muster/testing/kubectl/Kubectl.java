package dev.muster.testing.kubectl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code kubectl} on the PATH, run against one kubeconfig, as a user would type it: for tests whose
 * assertions are what kubectl prints.
 */
public final class Kubectl {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Path kubeconfig;
    private final Path plugins;

    public Kubectl(Path kubeconfig) {
        this(kubeconfig, null);
    }

    /** @param plugins a folder of kubectl plugins ({@code kubectl-<name>} executables) to put first on kubectl's PATH */
    public Kubectl(Path kubeconfig, Path plugins) {
        this.kubeconfig = kubeconfig;
        this.plugins = plugins;
    }

    /** What one command printed, and how it exited. */
    public record Result(int exitCode, String out, String err) {

        /** The output, or a failure naming the command's error output when it did not succeed. */
        public String succeeded() {
            if (exitCode != 0) {
                throw new AssertionError("kubectl exited with " + exitCode + ": " + err + out);
            }
            return out;
        }
    }

    /** Runs {@code kubectl <arguments>} and waits for it (a minute at most). */
    public Result run(String... arguments) {
        try {
            Process process = command(arguments).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("kubectl " + String.join(" ", arguments) + " did not finish within " + TIMEOUT);
            }
            return new Result(process.exitValue(), out.get(), err.get());
        } catch (IOException | ExecutionException e) {
            throw new IllegalStateException("cannot run kubectl " + String.join(" ", arguments), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running kubectl", e);
        }
    }

    /**
     * Starts {@code kubectl <arguments>} for a command that runs until stopped, such as {@code get -w}; what it
     * prints is collected as it comes. Closing it stops kubectl.
     */
    public Running start(String... arguments) {
        try {
            return new Running(command(arguments).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kubectl " + String.join(" ", arguments), e);
        }
    }

    /** A kubectl that keeps running, and what it printed so far (output and errors together). */
    public static final class Running implements AutoCloseable {

        private final Process process;
        private final StringBuilder printed = new StringBuilder();

        private Running(Process process) {
            this.process = process;
            Thread reader = new Thread(() -> {
                try (var in = new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)) {
                    char[] buffer = new char[4096];
                    int read;
                    while ((read = in.read(buffer)) >= 0) {
                        synchronized (printed) {
                            printed.append(buffer, 0, read);
                        }
                    }
                } catch (IOException e) {
                    // kubectl is gone; what it printed is kept
                }
            }, "kubectl-output");
            reader.setDaemon(true);
            reader.start();
        }

        public String printed() {
            synchronized (printed) {
                return printed.toString();
            }
        }

        public boolean isAlive() {
            return process.isAlive();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private ProcessBuilder command(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        if (plugins != null) {
            builder.environment().put("PATH", plugins.toAbsolutePath() + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        }
        return builder;
    }

    /** kubectl from the PATH; a clear failure when there is none. */
    private static String executable() {
        for (String folder : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(folder, "kubectl");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new IllegalStateException("kubectl is not on the PATH: these tests run the real kubectl (1.32 or newer);"
                + " see the README's quick start for how to install it");
    }

    private static String read(java.io.InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
