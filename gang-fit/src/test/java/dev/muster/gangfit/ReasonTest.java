package dev.muster.gangfit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class ReasonTest {

    @Test
    void aReasonIsWordedOnlyWhenReadAndOnlyOnce() {
        AtomicInteger worded = new AtomicInteger();
        Reason reason = Reason.worded(() -> "no node has 8 nvidia.com/gpu free for pod w-" + worded.incrementAndGet());

        assertThat(worded).hasValue(0);
        assertThat(reason.text()).isEqualTo("no node has 8 nvidia.com/gpu free for pod w-1");
        assertThat(reason.text()).isEqualTo("no node has 8 nvidia.com/gpu free for pod w-1");
        assertThat(worded).hasValue(1);
    }

    @Test
    void reasonsAreEqualWhenTheyReadTheSame() {
        assertThat(Reason.worded(() -> "the member has not reported its state yet"))
                .isEqualTo(Reason.of("the member has not reported its state yet"))
                .hasToString("the member has not reported its state yet");
    }

    @Test
    void aGangThatDoesNotFitIsWordedFromTheIndexItWasPackedOn() {
        NodeIndex index = NodeIndex.of(List.of(SchedulingFixtures.node("b-0", 16, 8), SchedulingFixtures.node("b-1", 16, 8)));

        GangPlan plan = GangPacker.pack(Gang.of(List.of(SchedulingFixtures.gpuPod("w-0", 6), SchedulingFixtures.gpuPod("w-1", 6),
                SchedulingFixtures.gpuPod("w-2", 4))), index);

        assertThat(plan).isEqualTo(new GangPlan.Unplaceable("no node has 4 nvidia.com/gpu free for pod w-2 (largest free: 2 on node b-0)"));
    }
}
