package dev.muster.placement.core.fit;

/** How placement chooses among the nodes (and member clusters) a gang fits. */
public enum Scoring {
    /**
     * Each pod to the node the least of its main resource (GPUs, else CPU) would be left on; the cluster left with the
     * fewest partly used GPU nodes.
     */
    BEST_FIT,
    /**
     * Each pod to the node where it raises the expected fragmentation least, measured against the shapes of the latest
     * GPU pods placement was asked to place, and the cluster where the whole gang raises it least; ties as
     * {@link #BEST_FIT}.
     */
    FRAGMENTATION
}
