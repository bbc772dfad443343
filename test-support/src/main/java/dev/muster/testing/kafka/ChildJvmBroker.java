package dev.muster.testing.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.muster.kafka.broker.BrokerRuntime;

/** A broker node run as a child JVM from the jars the {@code kafka-broker} module resolved. */
final class ChildJvmBroker implements BrokerProcess {

    private static final System.Logger LOG = System.getLogger(ChildJvmBroker.class.getName());

    private final Process process;

    private ChildJvmBroker(Process process) {
        this.process = process;
    }

    /** Starts the node on {@code configFile}, its output appended to {@code logFile}. */
    static ChildJvmBroker launch(KafkaBrokerConfig config, Path configFile, String clusterId, Path logFile) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(config.jvmOptions());
        command.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
        command.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");
        command.add("-cp");
        command.add(BrokerRuntime.classpath());
        command.add(BrokerRuntime.MAIN_CLASS);
        command.add(configFile.toString());
        command.add(clusterId);
        if (config.exitWithParent()) {
            command.add("--exit-with-parent");
        }
        Process started = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        if (!config.exitWithParent()) {
            started.getOutputStream().close();
        }
        return new ChildJvmBroker(started);
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void stop(Duration timeout) {
        process.destroy();
        awaitExit(timeout);
    }

    @Override
    public void kill(Duration timeout) {
        process.destroyForcibly();
        awaitExit(timeout);
    }

    @Override
    public void pause(Duration moment) {
        try {
            process.onExit().get(moment.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // still running
        } catch (ExecutionException e) {
            throw new KafkaBrokerException("cannot watch the broker process", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while waiting for the broker", e);
        }
    }

    @Override
    public String exitDescription() {
        return process.isAlive() ? "still running" : "exited with status " + process.exitValue();
    }

    private void awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaBrokerException("interrupted while stopping the broker", e);
        } finally {
            closeQuietly(process.getOutputStream());
        }
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "closing the broker's stdin failed", e);
        }
    }
}
