package dev.muster.model.member;

import java.util.Optional;

import dev.muster.model.job.JobCondition;
import dev.muster.model.job.MemberJobs;
import dev.muster.model.job.PyTorchJob;

/**
 * One PyTorchJob on one member, as {@code kubectl muster get pytorchjob -M} prints it:
 * {@code NAME CLUSTER STATE AGE ADOPTION}.
 *
 * @param created  the member copy's creation time (RFC 3339), for the age
 * @param adoption {@code Y} when Muster placed it and owns it, {@code N} for the member's own jobs
 */
public record MemberJobRow(String name, String namespace, String cluster, String state, String created, String adoption, String fleetUid) {

    /** The state shown for what runs on a member that does not answer, as kubectl shows pods of an unreachable node. */
    public static final String UNKNOWN = "Unknown";

    public static MemberJobRow of(String cluster, PyTorchJob job) {
        String state = Optional.ofNullable(job.getStatus()).flatMap(status -> status.currentCondition()).map(JobCondition::type).orElse("");
        Optional<String> fleetUid = MemberJobs.fleetUid(job);
        return new MemberJobRow(job.getMetadata().getName(), job.getMetadata().getNamespace(), cluster, state,
                job.getMetadata().getCreationTimestamp(), fleetUid.isPresent() ? "Y" : "N", fleetUid.orElse(null));
    }

    /** The row of a member that does not answer: its last known state is not its state now. */
    public MemberJobRow unknown() {
        return new MemberJobRow(name, namespace, cluster, UNKNOWN, created, adoption, fleetUid);
    }
}
