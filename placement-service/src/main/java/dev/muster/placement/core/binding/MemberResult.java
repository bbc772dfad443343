package dev.muster.placement.core.binding;

import dev.muster.model.event.JobRef;

/** What came of a {@link MemberCommand}. */
public sealed interface MemberResult {

    String cluster();

    JobRef job();

    /** The member copy exists (created now, or found owned by the same fleet job). */
    record JobCreated(String cluster, JobRef job) implements MemberResult {
    }

    /**
     * The job's deletion is asked for on the member, and this much of it was still there: nothing left means it has
     * stopped.
     *
     * @param left what was still there, for a person (e.g. {@code 2 pods, 1 reservation}); empty when nothing was
     */
    record Evicting(String cluster, JobRef job, String left) implements MemberResult {

        public boolean stopped() {
            return left.isEmpty();
        }
    }

    /** The member refused or did not answer; {@code reason} says which. */
    record Failed(String cluster, JobRef job, String step, String reason) implements MemberResult {
    }
}
