package dev.muster.model.event;

import java.util.Objects;

/**
 * What a member cluster answered to a write placement asked of it for the job (its member copy created, its removal
 * under way, the write refused, or no answer at all). Placement's executor records it on {@link Topics#PLACEMENT_RESULTS} and placement
 * decides what follows from it like any other input, in the transaction of the batch it is read in: the result of a
 * write is never acted on outside the log. A result read twice decides nothing the second time.
 *
 * @param cluster the member written to
 * @param outcome what came of the write
 * @param step    the write placement asked for, for a failure (e.g. {@code reserve}); empty otherwise
 * @param detail  for a person: what of an evicted job was still there, or why the write failed; empty otherwise
 */
public record MemberWriteAnswered(String cluster, Outcome outcome, String step, String detail) implements JobEventData {

    /** What came of a member write. */
    public enum Outcome {
        /** The member copy exists (created now, or found owned by the same fleet job). */
        CREATED,
        /** The job's removal is asked for; {@code detail} says what was still there (nothing: it has stopped). */
        EVICTING,
        /** The member refused or did not answer; {@code step} and {@code detail} say which write and why. */
        FAILED,
        /**
         * No answer came (the connection failed or timed out, or the member answered with a server error): the write may
         * have been carried out all the same, so nothing is decided as if it had not; {@code step} and {@code detail} say
         * which write and what happened.
         */
        UNANSWERED
    }

    public MemberWriteAnswered {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(outcome, "outcome");
        step = step == null ? "" : step;
        detail = detail == null ? "" : detail;
    }

    @Override
    public String summary() {
        return switch (outcome) {
            case CREATED -> "member " + cluster + " holds the job's copy";
            case EVICTING -> detail.isEmpty() ? "stopped on member " + cluster : "stopping on member " + cluster + ": " + detail + " left";
            case FAILED -> step + " on member " + cluster + " failed: " + detail;
            case UNANSWERED -> step + " on member " + cluster + " got no answer: " + detail;
        };
    }
}
