package dev.muster.model.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobValidator;
import dev.muster.model.json.ManifestException;
import dev.muster.model.json.Manifests;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.resource.InvalidQuantityException;
import dev.muster.model.resource.Quantities;

/** Inputs whose demand could never fit, or whose reading alone would exhaust a service, are refused at once with the limit named. */
class SubmissionLimitsTest {

    private static String seedJob() {
        return SeedManifests.text(SeedManifests.PYTORCH_JOB);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e400", "99999999999999999999999Ei", "9223372036854775808", "10E"})
    void aQuantityBeyondWhatKubernetesHoldsIsRefusedNamingTheLimit(String text) {
        assertThatThrownBy(() -> Quantities.parse(text)).isInstanceOf(InvalidQuantityException.class)
                .hasMessage("quantity \"" + text + "\" must be at most 9223372036854775807 (2^63-1), as in Kubernetes");
    }

    // Building this number would take minutes and gigabytes; refusing it, nothing. The timeout only keeps a regression from hanging the build.
    @Test
    @Timeout(30)
    void aQuantityWithAHugeExponentIsRefusedWithoutWorkingItOut() {
        assertThatThrownBy(() -> Quantities.parse("1e100000000")).isInstanceOf(InvalidQuantityException.class);
        assertThat(Quantities.parse("9223372036854775807").toPlainString()).isEqualTo("9223372036854775807");
    }

    // Nine levels of ten aliases each would be a billion strings once expanded. Muster's YAML reader never expands an
    // alias: it reads as the anchor's name, so such a manifest costs what its text costs.
    @Test
    @Timeout(30)
    void yamlAliasesAreNotExpandedSoABillionLaughsCostsOnlyItsText() throws Exception {
        StringBuilder laughs = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (char level = 'b'; level <= 'i'; level++) {
            char below = (char) (level - 1);
            laughs.append(level).append(": &").append(level).append(" [");
            for (int i = 0; i < 10; i++) {
                laughs.append(i == 0 ? "" : ",").append('*').append(below);
            }
            laughs.append("]\n");
        }
        String text = seedJob().replaceFirst("metadata:", laughs + "metadata:");

        com.fasterxml.jackson.databind.JsonNode tree = dev.muster.model.json.MusterJson.yaml().readTree(text);
        assertThat(tree.path("i")).hasSize(10).allSatisfy(element -> assertThat(element.asText()).isEqualTo("h"));
        assertThat(Manifests.read(text, PyTorchJob.class).getMetadata().getName()).isEqualTo("pytorch-test");
    }

    @Test
    void replicasThatAreNotAWholeNumberAreAnErrorNotRoundedDown() {
        String text = seedJob().replaceFirst("replicas: 2", "replicas: 1.5");

        assertThatThrownBy(() -> Manifests.read(text, PyTorchJob.class)).isInstanceOf(ManifestException.class)
                .hasMessageContaining("spec.pytorchReplicaSpecs.Worker.replicas: expected an integer");
    }

    @Test
    void aGangOfMoreThanTheLimitOfPodsIsRefusedBeforeAnyPodIsBuilt() {
        PyTorchJob job = Manifests.read(seedJob().replaceFirst("replicas: 2", "replicas: 2147483647"), PyTorchJob.class);

        assertThat(PyTorchJobValidator.validate(job)).extracting(Violation::toString).contains(
                "spec.pytorchReplicaSpecs.Worker.replicas: must be at most 10000 (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got 2147483647",
                "spec.pytorchReplicaSpecs: total replicas must be at most 10000 (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got 2147483648");
    }

    @Test
    void aFleetsOwnLimitsJudgeGangsAndRecordsAndALimitOutOfRangeIsRefusedNamingItsSetting() {
        PyTorchJob seed = Manifests.read(seedJob(), PyTorchJob.class);
        Limits.use(new Limits(4096, 2));
        try {
            assertThat(PyTorchJobValidator.validate(seed)).extracting(Violation::toString).containsExactly(
                    "spec.pytorchReplicaSpecs: total replicas must be at most 2 (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got 3");
            assertThatThrownBy(() -> dev.muster.model.event.EventSerde.deserialize(new byte[4096 + Limits.ENVELOPE_BYTES + 1]))
                    .hasMessageStartingWith("a record of 69633 bytes is larger than the 69632 bytes Muster reads (an object of at most 4096 bytes,"
                            + " muster.limits.max-object-bytes");
        } finally {
            Limits.use(Limits.DEFAULTS);
        }
        assertThat(PyTorchJobValidator.validate(seed)).isEmpty();
        assertThatThrownBy(() -> new Limits(1_572_864, 0)).hasMessage("muster.limits.max-pods-per-gang must be at least 1, got 0");
        assertThatThrownBy(() -> new Limits(10, 10)).hasMessageStartingWith("muster.limits.max-object-bytes must be between 1024 and");
    }

    @Test
    void aNamespaceThatIsNotADnsLabelIsRefused() {
        PyTorchJob job = Manifests.read(seedJob(), PyTorchJob.class);
        job.getMetadata().setNamespace("Team A");

        assertThat(PyTorchJobValidator.validate(job)).extracting(Violation::path).containsExactly("metadata.namespace");
    }

    @Test
    void manifestsNestedDeeperThanTheLimitAreRefusedAsTheyAreRead() {
        String deep = "{\"apiVersion\":\"kubeflow.org/v1\",\"kind\":\"PyTorchJob\",\"metadata\":{\"name\":\"x\"},\"spec\":"
                + "{\"a\":".repeat(200) + "1" + "}".repeat(200) + "}";

        assertThatThrownBy(() -> Manifests.read(deep)).isInstanceOf(ManifestException.class).hasMessageContaining("nesting depth");
    }
}
