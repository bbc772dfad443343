package dev.muster.bench.quality;

import java.util.Map;
import java.util.Set;

/**
 * One sample of the fleet over time.
 *
 * @param gpusByTenant the GPUs each tenant's admitted jobs are charged
 * @param contending   the tenants with jobs waiting in the queue
 * @param placing      the Muster jobs quota admitted that have waited {@link QualitySimulation#STUCK} or longer for a member with room (of
 *                     the {@code waiting}): not a gang on its way from its admission to its member
 * @param idle         the fleet's free GPUs, and of them those no waiting pod fits on, those a pod of an admitted gang
 *                     waiting for a member fits on (the whole gang does not), and those only pods of jobs quota holds back fit on
 */
record FleetSample(long time, double gpuAllocation, int waiting, int placing, int running, Map<String, Long> gpusByTenant, Set<String> contending,
                   IdleGpus idle) {
}
