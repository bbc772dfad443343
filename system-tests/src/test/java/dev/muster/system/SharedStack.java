package dev.muster.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * One stack for the system tests whose faults leave the fleet as they found it (failover, reclaim): started by the
 * first of them, stopped when the test JVM ends. A stack takes half a minute to start; the suite's time is its budget.
 */
final class SharedStack {

    private static MusterStack stack;

    private SharedStack() {
    }

    static synchronized MusterStack get() {
        if (stack == null) {
            try {
                stack = MusterStack.start(Path.of("..", "deploy", "local", "fleet.yaml"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "muster-stack-stop"));
        }
        return stack;
    }
}
