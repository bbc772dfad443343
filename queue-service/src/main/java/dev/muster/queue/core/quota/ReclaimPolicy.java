package dev.muster.queue.core.quota;

import java.util.Arrays;
import java.util.Optional;

/** What happens when a node below its guaranteed {@code min} has a job that borrowed capacity blocks. */
public enum ReclaimPolicy {

    /** The borrowers' newest, lowest-priority jobs above their own min are preempted, just enough of them. */
    PREEMPT("Preempt"),
    /** Borrowers keep running; the guaranteed job waits until capacity frees. */
    NEVER("Never");

    /** The ElasticQuotaTree annotation that sets the policy; {@code Preempt} when absent. */
    public static final String ANNOTATION = "muster.dev/reclaim";

    private final String text;

    ReclaimPolicy(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    public static Optional<ReclaimPolicy> fromText(String text) {
        return Arrays.stream(values()).filter(policy -> policy.text.equals(text)).findFirst();
    }
}
