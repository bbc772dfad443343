package dev.muster.model.event;

import dev.muster.model.job.PyTorchJobStatus;

/**
 * The job's copy on a member changed state.
 *
 * @param state  {@code Created}, {@code Running}, {@code Restarting}, {@code Succeeded}, {@code Failed}, or
 *               {@code Unknown} when the member cannot be observed
 * @param reason a one-word cause of the state
 * @param status the member copy's status, when observed
 */
public record MemberStatusChanged(String cluster, String state, String reason, String message, PyTorchJobStatus status)
        implements JobEventData {

    @Override
    public String summary() {
        return "on " + cluster + " is " + state + " (" + reason + "): " + message;
    }
}
