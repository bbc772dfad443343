package dev.muster.local;

import java.util.logging.Level;

import org.jboss.logmanager.LogContext;

/**
 * Logging in a JVM that hosts the local stack and its simulated members ({@code ./muster up}, the end-to-end
 * benchmark): libraries and the simulated clusters log warnings and errors only; the services log to their own
 * files. Without it, two things went wrong depending on which logger the JVM happened to touch first:
 * <ul>
 * <li>Quarkus' bootstrap jar, on this classpath with the services, configures JBoss LogManager (behind SLF4J) for
 * an application that never starts here: every logger at level ALL, into a buffer never written. Every library
 * did its trace-level work for nothing; fabric8 added its HTTP logging interceptor to each client of the simulated
 * members, copying every response body (6 % of the benchmark JVM's CPU under load).</li>
 * <li>{@code System.Logger} and fabric8's mock API servers log through java.util.logging: a line for every pod
 * the simulated scheduler binds and every request a mock server answers, tens per job.</li>
 * </ul>
 */
public final class HarnessLogging {

    /** Held so the level set on it stays: java.util.logging keeps only weak references to its loggers. */
    private static final java.util.logging.Logger JUL_ROOT = java.util.logging.Logger.getLogger("");

    private HarnessLogging() {
    }

    /** Call first thing in {@code main}, before any library logs. */
    public static void install() {
        LogContext.getLogContext().getLogger("").setLevel(Level.WARNING);
        JUL_ROOT.setLevel(Level.WARNING);
    }
}
