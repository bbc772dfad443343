package dev.muster.bench.quality;

import dev.muster.placement.core.fit.FitMode;

/** The placement policies the simulator compares on the same job stream. */
enum PlacementPolicy {

    /** The seed's estimate: the gang's total against the sum of free resources, then create the job and hope. */
    SUM_ESTIMATE("sum-estimate", FitMode.SUM_ESTIMATE, false),
    /** Muster's node-level fit on its inventory, then create the job. */
    NODE_FIT("node-fit", FitMode.NODE, false),
    /** Node-level fit, then reserve the gang's capacity on the member before the job is created (Muster's default). */
    NODE_FIT_RESERVATION("node-fit+reservation", FitMode.NODE, true, false),
    /**
     * The same, each pod placed (and its reservation pinned) where it raises the expected fragmentation of the GPU pod
     * shapes seen so far least, and the member chosen where the gang raises it least.
     */
    FRAGMENTATION("node-fit+reservation+fragmentation", FitMode.NODE, true, true);

    private final String label;
    private final FitMode mode;
    private final boolean reserves;
    private final boolean scoresFragmentation;

    PlacementPolicy(String label, FitMode mode, boolean reserves) {
        this(label, mode, reserves, false);
    }

    PlacementPolicy(String label, FitMode mode, boolean reserves, boolean scoresFragmentation) {
        this.label = label;
        this.mode = mode;
        this.reserves = reserves;
        this.scoresFragmentation = scoresFragmentation;
    }

    boolean scoresFragmentation() {
        return scoresFragmentation;
    }

    String label() {
        return label;
    }

    FitMode mode() {
        return mode;
    }

    boolean reserves() {
        return reserves;
    }
}
