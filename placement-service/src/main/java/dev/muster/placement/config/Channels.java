package dev.muster.placement.config;

/** The placement service's messaging channels, as its {@code application.properties} configures them ({@code mp.messaging.*.<channel>}). */
public final class Channels {

    /** What placement decides on: admissions, inventory, deletions and member status, consumed in batches, read committed. */
    public static final String INPUTS = "inputs";

    /** Its decisions, dead letters and state, in one transaction with the consumed offsets. */
    public static final String PLACEMENTS = "placements";

    /** What members answered to its writes, and its ticks, sent to itself on {@code muster.placement.results} as inputs. */
    public static final String PLACEMENT_RESULTS = "placement-results";

    private Channels() {
    }
}
