package dev.muster.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class FairnessTest {

    private static FleetSample sample(long time, Map<String, Long> gpus, Set<String> contending) {
        return new FleetSample(time, 0.5, 10, 0, 10, gpus, contending, null);
    }

    @Test
    void gpusInTheRatioOfTheWeightsAreFairAndOneTenantHoldingAllIsOneOverN() {
        Map<String, Double> weights = Map.of("a", 2.0, "b", 1.0);
        Fairness proportional = Fairness.of(List.of(sample(0, Map.of("a", 8L, "b", 4L), Set.of("a", "b"))), weights, 100);
        Fairness hogged = Fairness.of(List.of(sample(0, Map.of("a", 12L, "b", 0L), Set.of("a", "b"))), weights, 100);

        assertThat(proportional.meanJainIndex()).isCloseTo(1.0, within(1e-9));
        assertThat(proportional.meanGpuShareByTenant()).containsEntry("a", 8 / 12.0).containsEntry("b", 4 / 12.0);
        assertThat(hogged.meanJainIndex()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void onlySamplesWithTwoContendingTenantsBeforeTheLastArrivalCount() {
        Map<String, Double> weights = Map.of("a", 1.0, "b", 1.0);
        Fairness fairness = Fairness.of(List.of(sample(0, Map.of("a", 12L, "b", 0L), Set.of("a")),
                sample(10, Map.of("a", 6L, "b", 6L), Set.of("a", "b")), sample(200, Map.of("a", 12L, "b", 0L), Set.of("a", "b"))), weights, 100);

        assertThat(fairness.contendedSamples()).isEqualTo(1);
        assertThat(fairness.meanJainIndex()).isCloseTo(1.0, within(1e-9));
    }
}
