package dev.muster.statussync;

import java.time.Duration;

import dev.muster.fleetclient.JobOrderedWrites.RetryPolicy;

/** Backoffs for tests of what is sent again until the broker has it. */
public final class RetryPolicies {

    /** Tried again at once, as often as it takes. */
    public static final RetryPolicy AT_ONCE = new RetryPolicy(failure -> true, Duration.ofMillis(1), Duration.ofMillis(5));
    /** Tried again only after the test is over. */
    public static final RetryPolicy IN_AN_HOUR = new RetryPolicy(failure -> true, Duration.ofHours(1), Duration.ofHours(1));

    private RetryPolicies() {
    }
}
