package dev.muster.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * Marks the fault-injection tests that take minutes each (kills, broker and fleet API outages, failovers, the storm):
 * left out of the README's test command so the suite stays within its 15 minutes on 2 cores, and run by CI
 * ({@code -Pfaults} adds them, {@code -Pfaults-only} runs them alone).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(FaultTier.TAG)
public @interface FaultTier {

    String TAG = "faults";
}
