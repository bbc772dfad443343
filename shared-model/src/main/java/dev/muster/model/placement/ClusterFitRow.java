package dev.muster.model.placement;

import java.math.BigDecimal;

/**
 * Whether a job's whole gang fits one member cluster now, as {@code kubectl muster explain} prints it: best
 * first, with the score (GPU nodes left partly used, free GPUs) when it fits and the reason when it does not.
 *
 * @param partialGpuNodes GPU nodes left partly used after the gang; null when it does not fit
 * @param freeGpu         the cluster's free GPUs now; null when it does not fit
 * @param domain          the topology domain the whole gang would be in ({@code label=value}), when the job asks for a
 *                        topology and one holds it; else null
 */
public record ClusterFitRow(String cluster, boolean fits, Integer partialGpuNodes, BigDecimal freeGpu, String reason, String domain) {

    public ClusterFitRow(String cluster, boolean fits, Integer partialGpuNodes, BigDecimal freeGpu, String reason) {
        this(cluster, fits, partialGpuNodes, freeGpu, reason, null);
    }
}
