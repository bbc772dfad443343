package dev.muster.model.validation;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What Muster accepts at most, checked when a job or configuration object is submitted, so that no input can
 * exhaust a service (a gang of a hundred million pods, a quantity with a hundred million digits). The numbers
 * follow Kubernetes where it has one: its object size limit, and quantities that fit a signed 64-bit integer.
 * <p>
 * The object size and the pods per gang are a fleet's choice; each service sets them once at start from its
 * configuration ({@code muster.limits.*}), and every check in the process reads {@link #current()}. Nesting depth
 * and quantities stay fixed: no PyTorchJob needs more, and Kubernetes holds no more.
 *
 * @param maxObjectBytes the largest object Muster reads, manifest or configuration
 * @param maxPodsPerGang the most pods one job (its gang) may have, over all its replica types and in each
 */
public record Limits(int maxObjectBytes, int maxPodsPerGang) {

    /** The largest object a Kubernetes API server stores, as etcd does: 1.5 MiB. */
    public static final int KUBERNETES_OBJECT_BYTES = 3 * 512 * 1024;
    /** What a record may carry besides its object: the CloudEvents envelope. */
    public static final int ENVELOPE_BYTES = 64 * 1024;
    /** How deep objects and arrays may nest in a manifest or an event; a PyTorchJob needs about 20. */
    public static final int MAX_NESTING_DEPTH = 100;
    /** The largest quantity of any resource, in its base unit: what a Kubernetes quantity holds, 2^63-1. */
    public static final BigDecimal MAX_QUANTITY = BigDecimal.valueOf(Long.MAX_VALUE);
    /** Kubernetes' object size and 10,000 pods per gang. */
    public static final Limits DEFAULTS = new Limits(KUBERNETES_OBJECT_BYTES, 10_000);

    private static volatile Limits current = DEFAULTS;

    public Limits {
        if (maxObjectBytes < 1024 || maxObjectBytes > Integer.MAX_VALUE - ENVELOPE_BYTES) {
            throw new IllegalArgumentException("muster.limits.max-object-bytes must be between 1024 and "
                    + (Integer.MAX_VALUE - ENVELOPE_BYTES) + ", got " + maxObjectBytes);
        }
        if (maxPodsPerGang < 1) {
            throw new IllegalArgumentException("muster.limits.max-pods-per-gang must be at least 1, got " + maxPodsPerGang);
        }
    }

    /** The largest record Muster reads: one object and its envelope. */
    public int maxRecordBytes() {
        return maxObjectBytes + ENVELOPE_BYTES;
    }

    /** The limits of this process: {@link #DEFAULTS} until the service sets its own. */
    public static Limits current() {
        return current;
    }

    /** Sets the limits of this process; a service calls it once at start, before it reads any input. */
    public static void use(Limits limits) {
        current = Objects.requireNonNull(limits, "limits");
    }
}
