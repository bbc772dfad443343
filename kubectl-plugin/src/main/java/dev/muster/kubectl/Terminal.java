package dev.muster.kubectl;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Map;

/**
 * Where a command runs: what it prints to, the environment it reads Muster's whereabouts from, and the clock ages are
 * counted by. Tests give their own.
 */
record Terminal(PrintStream out, PrintStream err, Map<String, String> environment, Clock clock) {

    Terminal {
        environment = Map.copyOf(environment);
    }
}
