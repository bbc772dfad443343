package dev.muster.bench.quality;

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
}
