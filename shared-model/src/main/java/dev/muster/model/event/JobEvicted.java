package dev.muster.model.event;

/**
 * Placement stopped a preempted or withdrawn job on its member: its member copy, every pod and every reservation made
 * for it are gone (terminating pods were waited for), so the quota it held may go to the job that reclaimed it, or to
 * the next one.
 *
 * @param cluster the member it was stopped on, or null when it was on none yet
 * @param message for a person: what was removed where
 */
public record JobEvicted(String cluster, String message) implements JobEventData {

    @Override
    public String summary() {
        return "stopped: " + message;
    }
}
