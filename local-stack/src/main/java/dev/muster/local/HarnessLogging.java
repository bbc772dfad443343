package dev.muster.local;

import java.util.logging.Handler;
import java.util.logging.Level;

import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.Logger;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.jboss.logmanager.handlers.ConsoleHandler;

/**
 * Library logging (SLF4J, through JBoss LogManager) in the JVM that hosts the local stack: warnings and errors to
 * standard error. Quarkus' bootstrap jar, on this classpath with the services, configures JBoss LogManager for a
 * Quarkus application that never starts here: every logger at level ALL, into a buffer that is never written. So
 * warnings were lost, and every library did its trace-level work: fabric8 added its HTTP logging interceptor to
 * each client of the simulated members, copying every response body to log it (6 % of this JVM's CPU under load).
 */
final class HarnessLogging {

    private HarnessLogging() {
    }

    static void install() {
        Logger root = LogContext.getLogContext().getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        ConsoleHandler console = new ConsoleHandler(ConsoleHandler.Target.SYSTEM_ERR, new PatternFormatter("%d{HH:mm:ss} %-5p [%c{1.}] %s%e%n"));
        console.setLevel(Level.WARNING);
        root.addHandler(console);
        root.setLevel(Level.WARNING);
    }
}
