package dev.muster.model.resource;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class QuantityProperties {

    @Provide
    Arbitrary<BigDecimal> amounts() {
        // Kubernetes quantities carry at most nano precision; cover milli-cpu, byte counts and huge counts.
        return Arbitraries.bigDecimals().between(BigDecimal.valueOf(-1L << 50), BigDecimal.valueOf(1L << 50)).ofScale(9);
    }

    @Provide
    Arbitrary<String> resources() {
        return Arbitraries.of("cpu", "memory", "nvidia.com/gpu", "kube-queue/max-jobs", "ephemeral-storage");
    }

    @Property
    void formattingThenParsingGivesTheSameAmount(@ForAll("resources") String resource, @ForAll("amounts") BigDecimal amount) {
        assertThat(Quantities.parse(Quantities.format(resource, amount))).isEqualByComparingTo(amount);
    }

    @Property
    void subtractingWhatWasAddedGivesTheOriginal(@ForAll("resources") String resource,
                                                 @ForAll("amounts") BigDecimal a, @ForAll("amounts") BigDecimal b) {
        ResourceList first = ResourceList.of(resource, a);
        ResourceList second = ResourceList.of(resource, b);

        assertThat(first.plus(second).minus(second)).isEqualTo(first);
        assertThat(first.plus(second)).isEqualTo(second.plus(first));
    }
}
