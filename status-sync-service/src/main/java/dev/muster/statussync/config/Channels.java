package dev.muster.statussync.config;

/** The status-sync service's messaging channels, as its {@code application.properties} configures them ({@code mp.messaging.*.<channel>}). */
public final class Channels {

    /** What the fleet must show: submissions, admissions, placements and its own member status. */
    public static final String JOB_EVENTS = "job-events";

    /** Its decisions on member jobs, and its dead letters. */
    public static final String MEMBER_STATUS = "member-status";

    /** The members' nodes, pods and reservations, for placement. */
    public static final String INVENTORY = "inventory";

    private Channels() {
    }
}
