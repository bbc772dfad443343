package dev.muster.bench.quality;

import java.math.BigDecimal;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * One job of the simulated stream: a gang of identical workers.
 *
 * @param arrival      when it is submitted, in seconds from the start
 * @param duration     how long it runs once all its workers started, in seconds
 * @param localCluster the member it is submitted to directly, bypassing Muster, or -1 for a Muster job
 */
record SimulatedJob(int id, long arrival, long duration, String tenant, int workers, PodShape worker, int localCluster) {

    /** What one worker asks for. */
    record PodShape(long cpuMilli, long memoryMib, int gpu) {
    }

    boolean isLocal() {
        return localCluster >= 0;
    }

    long gpus() {
        return (long) worker.gpu() * workers;
    }

    String uid() {
        return "job-" + id;
    }

    /** Where its pods run: its tenant's namespace, or one namespace for every member-local job. */
    String namespace() {
        return isLocal() ? "member-local" : tenant;
    }

    String podName(int index) {
        return uid() + "-worker-" + index;
    }

    /** What one worker's pod asks of a node. */
    ResourceList workerRequest() {
        return resources(worker.cpuMilli(), worker.memoryMib(), worker.gpu()).with(ResourceNames.PODS, BigDecimal.ONE);
    }

    /** What the whole gang asks of its quota. */
    ResourceList demand() {
        return resources(worker.cpuMilli(), worker.memoryMib(), worker.gpu()).times(workers);
    }

    /** CPU, memory and GPUs as Kubernetes counts them. */
    static ResourceList resources(long cpuMilli, long memoryMib, long gpu) {
        return ResourceList.of(ResourceNames.CPU, BigDecimal.valueOf(cpuMilli, 3))
                .with(ResourceNames.MEMORY, BigDecimal.valueOf(memoryMib * 1024 * 1024))
                .with(ResourceNames.GPU, BigDecimal.valueOf(gpu));
    }
}
