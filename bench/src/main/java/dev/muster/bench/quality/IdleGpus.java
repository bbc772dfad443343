package dev.muster.bench.quality;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Why GPUs are idle while jobs wait, at one sample: of the fleet's free GPUs, those on nodes where no waiting pod fits
 * (fragments: what fragmentation-aware placement could recover), those where a pod of an admitted gang waiting for a
 * member fits but the whole gang does not fit the member, and those only pods of jobs that quota holds back fit on.
 * Of the fragments, {@code stranded} are on nodes with GPUs enough for a waiting pod but not the CPU or memory.
 */
record IdleGpus(long free, long fragmented, long admittedFit, long quotaHeldFit, long stranded) {

    static IdleGpus of(List<MemberCluster> members, Set<SimulatedJob.PodShape> admitted, Set<SimulatedJob.PodShape> held) {
        Set<SimulatedJob.PodShape> waiting = new HashSet<>(admitted);
        waiting.addAll(held);
        long free = 0;
        long usableByAdmitted = 0;
        long usableByAny = 0;
        long stranded = 0;
        for (MemberCluster member : members) {
            free += member.gpus() - member.usedGpus();
            usableByAdmitted += member.freeGpusUsableBy(admitted);
            usableByAny += member.freeGpusUsableBy(waiting);
            stranded += member.freeGpusStrandedFor(waiting);
        }
        return new IdleGpus(free, free - usableByAny, usableByAdmitted, usableByAny - usableByAdmitted, stranded);
    }

    /**
     * The mean of each share over the samples at which jobs wait, as a share of the fleet's GPUs, e.g. {@code idle while
     * jobs wait: 11.8 % of the GPUs: 4.1 % where no waiting pod fits, ...}; empty when no sample has jobs waiting.
     */
    static String describe(List<FleetSample> samples, long fleetGpus) {
        double free = 0;
        double fragmented = 0;
        double admitted = 0;
        double held = 0;
        double stranded = 0;
        int counted = 0;
        for (FleetSample sample : samples) {
            if (sample.waiting() > 0 && sample.idle() != null) {
                free += sample.idle().free();
                fragmented += sample.idle().fragmented();
                admitted += sample.idle().admittedFit();
                held += sample.idle().quotaHeldFit();
                stranded += sample.idle().stranded();
                counted++;
            }
        }
        if (counted == 0 || fleetGpus == 0) {
            return "";
        }
        double scale = 100.0 / counted / fleetGpus;
        return String.format(Locale.ROOT, "idle while jobs wait (%d samples): %.1f %% of the GPUs: %.1f %% where no waiting pod fits (%.1f %% of them"
                + " with GPUs enough for one but not its CPU or memory), %.1f %% where a pod of an admitted gang fits (not the whole gang), %.1f %%"
                + " where only pods of jobs quota holds back fit", counted, free * scale, fragmented * scale, stranded * scale, admitted * scale,
                held * scale);
    }
}
