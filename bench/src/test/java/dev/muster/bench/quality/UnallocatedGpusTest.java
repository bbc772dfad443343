package dev.muster.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class UnallocatedGpusTest {

    private static FleetSample sample(long time, double allocation, int waiting, int placing) {
        return new FleetSample(time, allocation, waiting, placing, 0, Map.of(), Set.of(), null);
    }

    @Test
    void theFleetFillingWithNothingWaitingAndTheDrainAfterTheLastArrivalAreNotCounted() {
        UnallocatedGpus unallocated = UnallocatedGpus.of(List.of(
                sample(0, 0.10, 0, 0),      // filling: nothing waits
                sample(600, 0.96, 40, 3),   // gangs wait for a member: 4 % free
                sample(1200, 0.98, 50, 1),  // 2 % free
                sample(1800, 0.90, 20, 0),  // no gang waits for a member: 10 % free
                sample(2400, 0.30, 5, 5)),  // after the last arrival
                1800);

        assertThat(unallocated.whileWaiting().samples()).isEqualTo(3);
        assertThat(unallocated.whileWaiting().mean()).isCloseTo((0.04 + 0.02 + 0.10) / 3, within(1e-9));
        assertThat(unallocated.whilePlacing().samples()).isEqualTo(2);
        assertThat(unallocated.whilePlacing().mean()).isCloseTo(0.03, within(1e-9));
        assertThat(unallocated.otherwise().samples()).isEqualTo(1);
        assertThat(unallocated.otherwise().mean()).isCloseTo(0.10, within(1e-9));
        assertThat(unallocated.describe()).isEqualTo("unallocated while jobs wait: 5.3 % (3 samples); while an admitted gang has waited a minute or more for a member:"
                + " 3.0 % (2 samples); otherwise: 10.0 % (1 samples)");
    }
}
