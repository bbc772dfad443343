package dev.muster.model.validation;

import java.math.BigDecimal;

/**
 * What Muster accepts at most, checked when a job or configuration object is submitted, so that no input can
 * exhaust a service (a gang of a hundred million pods, a quantity with a hundred million digits). The numbers
 * follow Kubernetes where it has one: its object size limit, and quantities that fit a signed 64-bit integer.
 */
public final class Limits {

    /** The largest object the fleet API stores, as Kubernetes' etcd does: 1.5 MiB. */
    public static final int MAX_OBJECT_BYTES = 3 * 512 * 1024;
    /** The largest record Muster reads: one object and its CloudEvents envelope. */
    public static final int MAX_RECORD_BYTES = MAX_OBJECT_BYTES + 64 * 1024;
    /** How deep objects and arrays may nest in a manifest or an event; a PyTorchJob needs about 20. */
    public static final int MAX_NESTING_DEPTH = 100;
    /** The most pods one job (its gang) may have, over all its replica types. */
    public static final int MAX_PODS_PER_GANG = 10_000;
    /** The largest quantity of any resource, in its base unit: what a Kubernetes quantity holds, 2^63-1. */
    public static final BigDecimal MAX_QUANTITY = BigDecimal.valueOf(Long.MAX_VALUE);

    private Limits() {
    }
}
