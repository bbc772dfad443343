package dev.muster.runtime.crash;

import java.util.Optional;

import org.jboss.logging.Logger;

/**
 * For crash tests only: halts the process, as {@code kill -9} or a power cut would, right after the one step a test
 * armed (a service's {@code crash-after} setting), so a restart can be shown to lose and duplicate nothing from
 * exactly that instant. Unarmed, it does nothing.
 *
 * @param armedStep the step to halt after; empty in production
 */
public record CrashPoint(Optional<String> armedStep) {

    private static final Logger LOG = Logger.getLogger(CrashPoint.class);
    /** The exit code of a process killed by SIGKILL, which is what the crash stands for. */
    private static final int KILLED = 137;

    /** Halts here if this step is the armed one; no shutdown hook runs, nothing is flushed. */
    public void after(String step) {
        if (armedStep.filter(step::equals).isPresent()) {
            LOG.warnf("crashing after step '%s' as the crash-after setting asks", step);
            Runtime.getRuntime().halt(KILLED);
        }
    }
}
