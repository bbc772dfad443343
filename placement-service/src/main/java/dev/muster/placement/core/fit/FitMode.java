package dev.muster.placement.core.fit;

/** How placement decides whether a gang fits a member cluster. */
public enum FitMode {
    /** Pack every pod onto a node that can hold it (requests, nodeSelector, affinity, taints): the default. */
    NODE,
    /**
     * The seed's estimate: the gang's total request against the sum of every node's free resources. For
     * members whose nodes Muster cannot see; it can choose a cluster where no node holds even one pod.
     */
    SUM_ESTIMATE
}
