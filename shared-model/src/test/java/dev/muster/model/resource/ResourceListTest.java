package dev.muster.model.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.muster.model.json.MusterJson;
import io.fabric8.kubernetes.api.model.Quantity;

class ResourceListTest {

    private static ResourceList list(String... nameAndQuantity) {
        java.util.Map<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < nameAndQuantity.length; i += 2) {
            map.put(nameAndQuantity[i], nameAndQuantity[i + 1]);
        }
        return ResourceList.parse(map);
    }

    @Test
    void addsAndSubtractsAcrossSuffixes() {
        ResourceList a = list("cpu", "10m", "memory", "1Gi");
        ResourceList b = list("cpu", "2", "memory", "512Mi", "nvidia.com/gpu", "1");

        assertThat(a.plus(b)).isEqualTo(list("cpu", "2010m", "memory", "1536Mi", "nvidia.com/gpu", "1"));
        assertThat(a.plus(b).minus(b)).isEqualTo(list("cpu", "10m", "memory", "1Gi", "nvidia.com/gpu", "0"));
        assertThat(a.minus(b).negativeNames()).containsExactly("cpu", "nvidia.com/gpu");
    }

    @Test
    void equalityIsNumericNotTextual() {
        assertThat(list("cpu", "1000m")).isEqualTo(list("cpu", "1")).hasSameHashCodeAs(list("cpu", "1"));
        assertThat(list("memory", "1Gi")).isEqualTo(list("memory", "1073741824"));
        assertThat(list("cpu", "1")).isNotEqualTo(list("cpu", "1", "memory", "0"));
    }

    @Test
    void onlyNamesTheLimitListsAreLimited() {
        ResourceList limit = list("cpu", "10", "kube-queue/max-jobs", "1");
        ResourceList demand = list("cpu", "4010m", "memory", "400000Gi", "kube-queue/max-jobs", "2");

        assertThat(demand.exceeding(limit)).containsExactly("kube-queue/max-jobs");
        assertThat(list("cpu", "10").fitsWithin(limit)).isTrue();
        assertThat(list("cpu", "10001m").fitsWithin(limit)).isFalse();
        assertThat(list("nvidia.com/gpu", "100000").fitsWithin(ResourceList.empty())).isTrue();
    }

    @Test
    void maxAndTimesAreElementWise() {
        assertThat(list("cpu", "1", "memory", "4Gi").max(list("cpu", "2", "nvidia.com/gpu", "1")))
                .isEqualTo(list("cpu", "2", "memory", "4Gi", "nvidia.com/gpu", "1"));
        assertThat(list("cpu", "2", "memory", "2Gi").times(3)).isEqualTo(list("cpu", "6", "memory", "6Gi"));
    }

    @Test
    void printsAndSerializesCanonicalQuantities() throws Exception {
        ResourceList demand = list("memory", "4096Mi", "cpu", "4.01");
        ObjectMapper json = MusterJson.json();

        assertThat(demand).hasToString("cpu=4010m, memory=4Gi");
        assertThat(json.writeValueAsString(demand)).isEqualTo("{\"cpu\":\"4010m\",\"memory\":\"4Gi\"}");
        assertThat(json.readValue("{\"cpu\":\"4010m\",\"memory\":\"4Gi\"}", ResourceList.class)).isEqualTo(demand);
        assertThat(demand.toQuantities()).containsEntry("memory", new Quantity("4Gi"));
    }

    @Test
    void readsFabric8QuantitiesAndNamesTheBadOne() {
        assertThat(ResourceList.fromQuantities(Map.of("cpu", new Quantity("3"))).amount("cpu")).isEqualByComparingTo(BigDecimal.valueOf(3));
        assertThatThrownBy(() -> ResourceList.fromQuantities(Map.of("cpu", new Quantity("two"))))
                .isInstanceOf(InvalidResourceException.class)
                .hasMessage("cpu: cannot parse quantity \"two\"");
    }

    /** A manifest may name thousands of resources: lists of many names are searched, and read as lists of few are. */
    @Test
    void aListOfThousandsOfNamesReadsAndAddsAsAListOfFew() {
        Map<String, String> many = new java.util.HashMap<>();
        for (int i = 0; i < 5_000; i++) {
            many.put("example.com/r" + i, Integer.toString(i + 1));
        }
        ResourceList big = ResourceList.parse(many);
        ResourceList sum = big.plus(list("cpu", "2", "example.com/r7", "1"));

        assertThat(big.amount("example.com/r4999")).isEqualByComparingTo("5000");
        assertThat(big.amount(new String("example.com/r0"))).as("found by its text, not its instance").isEqualByComparingTo("1");
        assertThat(big.amount("example.com/r5000")).isEqualByComparingTo("0");
        assertThat(big.names("cpu")).isFalse();
        assertThat(sum.amount("example.com/r7")).isEqualByComparingTo("9");
        assertThat(sum.amount("cpu")).isEqualByComparingTo("2");
        assertThat(sum.names()).hasSize(5_001).contains("example.com/r123", "cpu");
        assertThat(big.fitsWithin(sum)).isTrue();
        assertThat(sum.exceeding(big)).containsExactly("example.com/r7");
        assertThat(sum.minus(list("cpu", "2", "example.com/r7", "1"))).isEqualTo(big.plus(list("cpu", "0")));
    }
}
