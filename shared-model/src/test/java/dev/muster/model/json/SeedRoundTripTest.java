package dev.muster.model.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;
import io.fabric8.kubernetes.api.model.HasMetadata;

class SeedRoundTripTest {

    @ParameterizedTest
    @ValueSource(strings = {SeedManifests.ELASTIC_QUOTA_TREE, SeedManifests.POLICY_GANG,
            SeedManifests.POLICY_GANG_QUEUE, SeedManifests.PYTORCH_JOB})
    void seedManifestRoundTripsWithoutLosingAField(String name) throws Exception {
        String original = SeedManifests.text(name);

        HasMetadata parsed = Manifests.read(original);
        JsonNode written = MusterJson.json().readTree(Manifests.toJson(parsed));
        JsonNode rewrittenFromYaml = MusterJson.json().readTree(Manifests.toJson(Manifests.read(Manifests.toYaml(parsed))));

        JsonNode expected = scalarsAsText(MusterJson.yaml().readTree(original));
        assertThat(scalarsAsText(written)).isEqualTo(expected);
        assertThat(scalarsAsText(rewrittenFromYaml)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {SeedManifests.ELASTIC_QUOTA_TREE, SeedManifests.POLICY_GANG,
            SeedManifests.POLICY_GANG_QUEUE, SeedManifests.PYTORCH_JOB})
    void seedManifestParsesAsItsTypedKind(String name) {
        HasMetadata parsed = Manifests.read(SeedManifests.text(name));

        Class<?> expected = switch (name) {
            case SeedManifests.ELASTIC_QUOTA_TREE -> ElasticQuotaTree.class;
            case SeedManifests.PYTORCH_JOB -> PyTorchJob.class;
            default -> PropagationPolicy.class;
        };
        assertThat(parsed).isInstanceOf(expected);
    }

    /**
     * Quantities may be written as YAML numbers ({@code cpu: 999900}) and are written back as the
     * Kubernetes API server writes them, as strings ({@code "999900"}); compare scalars by their text.
     */
    private static JsonNode scalarsAsText(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                copy.set(field.getKey(), scalarsAsText(field.getValue()));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(scalarsAsText(element)));
            return copy;
        }
        return JsonNodeFactory.instance.textNode(node.asText());
    }
}
