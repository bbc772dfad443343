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
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        if (plugins != null) {
            builder.environment().put("PATH", plugins.toAbsolutePath() + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        }
        try {
            Process process = builder.start();
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
