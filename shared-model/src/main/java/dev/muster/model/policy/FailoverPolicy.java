package dev.muster.model.policy;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

import dev.muster.model.policy.PropagationPolicySpec.ApplicationFailover;

/**
 * How a placed job leaves a member it cannot run on: the {@code failover.application} of its policy.
 *
 * @param toleration how long the job may be unhealthy on its member before it is moved
 * @param purgeMode  what happens to the copy it leaves
 */
public record FailoverPolicy(Duration toleration, PurgeMode purgeMode) {

    /** Karmada's default {@code tolerationSeconds}, for a policy that asks for failover without saying how soon. */
    public static final Duration DEFAULT_TOLERATION = Duration.ofSeconds(300);

    /** When the copy on the member the job leaves is deleted. */
    public enum PurgeMode {
        /** At once, with its reservations: the job never runs twice. */
        IMMEDIATELY("Immediately"),
        /** Once the new copy is Running: no gap in service, for a while two copies. */
        GRACIOUSLY("Graciously"),
        /** Never: the job is not moved; its trouble is only reported. */
        NEVER("Never");

        private final String value;

        PurgeMode(String value) {
            this.value = value;
        }

        /** As the API spells it. */
        public String value() {
            return value;
        }

        public static Optional<PurgeMode> of(String value) {
            return Arrays.stream(values()).filter(mode -> mode.value.equals(value)).findFirst();
        }
    }

    /** The failover the policy asks for; empty when it asks for none (the job then stays where it is, and its trouble is reported). */
    public static Optional<FailoverPolicy> of(PropagationPolicy policy) {
        if (policy == null || policy.getSpec() == null || policy.getSpec().failover() == null
                || policy.getSpec().failover().application() == null) {
            return Optional.empty();
        }
        return Optional.of(of(policy.getSpec().failover().application()));
    }

    private static FailoverPolicy of(ApplicationFailover application) {
        Integer seconds = application.decisionConditions() == null ? null : application.decisionConditions().tolerationSeconds();
        Duration toleration = seconds == null ? DEFAULT_TOLERATION : Duration.ofSeconds(seconds);
        // Karmada's default purge mode is Graciously.
        PurgeMode mode = PurgeMode.of(application.purgeMode()).orElse(PurgeMode.GRACIOUSLY);
        return new FailoverPolicy(toleration, mode);
    }
}
