package dev.muster.queue.core.quota;

import java.time.Instant;
import java.util.Objects;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * A job as quota sees it.
 *
 * @param demand      the job's total demand (every pod of the gang)
 * @param priority    the resolved priority class value; higher goes first
 * @param submittedAt when it was submitted; earlier goes first among equal priorities
 * @param sequence    the order of submission, to break ties between equal times the same way on every replay
 */
public record QuotaJob(String uid, String namespace, String name, ResourceList demand, int priority, Instant submittedAt,
                       long sequence) {

    static final ResourceList ONE_JOB = ResourceList.of(ResourceNames.MAX_JOBS, java.math.BigDecimal.ONE);

    public QuotaJob {
        Objects.requireNonNull(uid, "uid");
        Objects.requireNonNull(demand, "demand");
        Objects.requireNonNull(submittedAt, "submittedAt");
    }

    /** What admission charges to every node on the job's path: its demand plus one job. */
    public ResourceList charge() {
        return demand.plus(ONE_JOB);
    }

    /** {@code namespace/name}. */
    public String ref() {
        return namespace + "/" + name;
    }
}
