package dev.muster.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class IdleGpusTest {

    private static final List<MemberCluster> MEMBERS = List.of(new MemberCluster("m", List.of(
            new TraceInputs.Node("m", "n0", 96_000, 512_000, 8, "A100"),
            new TraceInputs.Node("m", "n1", 4_000, 64_000, 2, "T4"))));

    @Test
    void idleGpusAreSplitByWhatWaitingPodsCouldUseThem() {
        SimulatedJob.PodShape fourGpus = new SimulatedJob.PodShape(8_000, 32_000, 4);
        SimulatedJob.PodShape twoGpusManyCpus = new SimulatedJob.PodShape(16_000, 32_000, 2);
        SimulatedJob.PodShape oneGpu = new SimulatedJob.PodShape(1_000, 8_000, 1);

        assertThat(IdleGpus.of(MEMBERS, Set.of(fourGpus), Set.of(twoGpusManyCpus))).as("n1's 2 GPUs: no waiting pod fits there, for its CPUs")
                .isEqualTo(new IdleGpus(10, 2, 8, 0, 2));
        assertThat(IdleGpus.of(MEMBERS, Set.of(fourGpus), Set.of())).as("n1's 2 GPUs: too few for the waiting pod")
                .isEqualTo(new IdleGpus(10, 2, 8, 0, 0));
        assertThat(IdleGpus.of(MEMBERS, Set.of(fourGpus), Set.of(oneGpu))).as("n1's 2 GPUs: only a pod quota holds back fits")
                .isEqualTo(new IdleGpus(10, 0, 8, 2, 0));
        assertThat(IdleGpus.of(MEMBERS, Set.of(), Set.of())).isEqualTo(new IdleGpus(10, 10, 0, 0, 0));
    }
}
