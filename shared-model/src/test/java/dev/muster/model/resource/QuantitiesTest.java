package dev.muster.model.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class QuantitiesTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            // every quantity in the seed's manifests
            "10m,            0.01",
            "3,              3",
            "2,              2",
            "2Gi,            2147483648",
            "999900,         999900",
            "400000Gi,       429496729600000",
            "10000000000,    10000000000",
            "100000,         100000",
            "1,              1",
            "10000,          10000",
            "10000Gi,        10737418240000",
            // the other forms Kubernetes accepts
            "1e3,            1000",
            "1E3,            1000",
            "12e-3,          0.012",
            "0.5,            0.5",
            "1.5Gi,          1610612736",
            "100k,           100000",
            "1M,             1000000",
            "1Ki,            1024",
            "1Ei,            1152921504606846976",
            "250u,           0.00025",
            "0,              0",
    })
    void parsesExactly(String text, String expected) {
        assertThat(Quantities.parse(text)).isEqualByComparingTo(new BigDecimal(expected));
    }

    @ParameterizedTest(name = "{0} {1} formats as {2}")
    @CsvSource({
            "cpu,               0.01,             10m",
            "cpu,               4.01,             4010m",
            "cpu,               999900,           999900",
            "cpu,               0.00025,          0.00025",
            "cpu,               0,                0",
            "memory,            4294967296,       4Gi",
            "memory,            429496729600000,  400000Gi",
            "memory,            1000,             1000",
            "memory,            1536,             1536",
            "memory,            3072,             3Ki",
            "memory,            -2147483648,      -2Gi",
            "nvidia.com/gpu,    8,                8",
            "kube-queue/max-jobs, 10000000000,    10000000000",
            "hugepages-2Mi,     2097152,          2Mi",
    })
    void formatsCanonically(String resource, String amount, String expected) {
        assertThat(Quantities.format(resource, new BigDecimal(amount))).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"two", "2Gb", "1.2.3", "Gi", "--1", " "})
    void rejectsWhatIsNotAQuantity(String text) {
        assertThatThrownBy(() -> Quantities.parse(text))
                .isInstanceOf(InvalidQuantityException.class)
                .hasMessage("cannot parse quantity \"" + text + "\"");
    }
}
