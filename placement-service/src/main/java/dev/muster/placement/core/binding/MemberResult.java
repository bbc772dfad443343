package dev.muster.placement.core.binding;

import dev.muster.model.event.JobRef;
import dev.muster.model.event.MemberWriteAnswered;
import dev.muster.model.event.MemberWriteAnswered.Outcome;

/** What came of a {@link MemberCommand}. */
public sealed interface MemberResult {

    String cluster();

    JobRef job();

    /** This result as the executor records it for the core to decide on. */
    MemberWriteAnswered answered();

    /** The result a recorded answer stands for. */
    static MemberResult of(JobRef job, MemberWriteAnswered answered) {
        return switch (answered.outcome()) {
            case CREATED -> new JobCreated(answered.cluster(), job);
            case EVICTING -> new Evicting(answered.cluster(), job, answered.detail());
            case FAILED -> new Failed(answered.cluster(), job, answered.step(), answered.detail());
            case UNANSWERED -> new Unanswered(answered.cluster(), job, answered.step(), answered.detail());
        };
    }

    /** The member copy exists (created now, or found owned by the same fleet job). */
    record JobCreated(String cluster, JobRef job) implements MemberResult {

        @Override
        public MemberWriteAnswered answered() {
            return new MemberWriteAnswered(cluster, Outcome.CREATED, "", "");
        }
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

        @Override
        public MemberWriteAnswered answered() {
            return new MemberWriteAnswered(cluster, Outcome.EVICTING, "", left);
        }
    }

    /**
     * The member gave no answer to a creation (the connection failed or timed out, or it answered with a server error):
     * the copy may exist there all the same; {@code reason} says what happened.
     */
    record Unanswered(String cluster, JobRef job, String step, String reason) implements MemberResult {

        @Override
        public MemberWriteAnswered answered() {
            return new MemberWriteAnswered(cluster, Outcome.UNANSWERED, step, reason);
        }
    }

    /** The member refused or did not answer; {@code reason} says which. */
    record Failed(String cluster, JobRef job, String step, String reason) implements MemberResult {

        @Override
        public MemberWriteAnswered answered() {
            return new MemberWriteAnswered(cluster, Outcome.FAILED, step, reason);
        }
    }
}
