package dev.muster.bench.quality;

import java.util.List;
import java.util.Locale;

/**
 * The fleet's unallocated GPUs while jobs wait, split by what holds the jobs back. The mean allocation over the arrival
 * span counts the first hours, when the fleet fills and nothing waits, as unallocated; a placement policy can only
 * recover GPUs left free while a gang quota admitted waits for a member with room ({@code placing}); otherwise the jobs
 * that wait are held back by quota (their tenants at their max) or on their way to a member.
 *
 * @param whileWaiting   mean share of the fleet's GPUs unallocated over the samples at which Muster jobs wait
 * @param whilePlacing   the same over the samples at which an admitted gang has waited a minute or more for a member
 * @param otherwise      the same over the other samples at which jobs wait
 */
record UnallocatedGpus(Share whileWaiting, Share whilePlacing, Share otherwise) {

    /** A mean share and the samples it is the mean of. */
    record Share(double mean, int samples) {

        String text() {
            return samples == 0 ? "-" : String.format(Locale.ROOT, "%.1f %% (%d samples)", mean * 100, samples);
        }
    }

    /** Over the samples up to the last arrival: the drain after it is the stream ending, not the policy. */
    static UnallocatedGpus of(List<FleetSample> samples, long lastArrival) {
        List<FleetSample> waiting = samples.stream().filter(sample -> sample.time() <= lastArrival && sample.waiting() > 0).toList();
        return new UnallocatedGpus(share(waiting), share(waiting.stream().filter(sample -> sample.placing() > 0).toList()),
                share(waiting.stream().filter(sample -> sample.placing() == 0).toList()));
    }

    private static Share share(List<FleetSample> samples) {
        return new Share(samples.stream().mapToDouble(sample -> 1 - sample.gpuAllocation()).average().orElse(0), samples.size());
    }

    String describe() {
        return "unallocated while jobs wait: " + whileWaiting.text() + "; while an admitted gang has waited a minute or more for a member: "
                + whilePlacing.text() + "; otherwise: " + otherwise.text();
    }
}
