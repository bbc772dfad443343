package dev.muster.queue.config;

/** The queue service's messaging channels, as its {@code application.properties} configures them ({@code mp.messaging.*.<channel>}). */
public final class Channels {

    /** What the queue decides on: submissions, fleet config and member status, consumed in batches, read committed. */
    public static final String INPUTS = "inputs";

    /** Its decisions, dead letters and state, in one transaction with the consumed offsets. */
    public static final String ADMISSIONS = "admissions";

    /** What the fleet API ingress and the ticker pass on to the input topics. */
    public static final String FLEET_INGRESS = "fleet-ingress";

    /** Every submitter's inbox on a secured cluster, consumed in batches, read committed. */
    public static final String INBOXES = "inboxes";

    /** What the submission gate passes on to the submissions topic, in one transaction with the inbox offsets. */
    public static final String GATE = "gate";

    private Channels() {
    }
}
