package dev.muster.placement.core.binding;

import dev.muster.model.event.JobRef;

/** What came of a {@link MemberCommand}. */
public sealed interface MemberResult {

    String cluster();

    JobRef job();

    /** The member copy exists (created now, or found owned by the same fleet job). */
    record JobCreated(String cluster, JobRef job) implements MemberResult {
    }

    /** The member refused or did not answer; {@code reason} says which. */
    record Failed(String cluster, JobRef job, String step, String reason) implements MemberResult {
    }
}
