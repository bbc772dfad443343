package dev.muster.model.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.quota.ElasticQuotaTree;

class ManifestsTest {

    @Test
    void readsJsonAsWellAsYaml() {
        PyTorchJob job = Manifests.read("""
                {"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"j","namespace":"ns"},
                 "spec":{"pytorchReplicaSpecs":{"Worker":{"replicas":3}}}}
                """, PyTorchJob.class);

        assertThat(job.getMetadata().getNamespace()).isEqualTo("ns");
        assertThat(job.getSpec().pytorchReplicaSpecs().get("Worker").replicas()).isEqualTo(3);
    }

    @Test
    void aCopyIsEqualButSharesNothingWithTheOriginal() {
        PyTorchJob seed = Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), PyTorchJob.class);

        PyTorchJob copy = Manifests.copy(seed);

        assertThat(Manifests.toJson(copy)).isEqualTo(Manifests.toJson(seed));
        copy.getMetadata().getLabels().put("changed", "in the copy");
        copy.getMetadata().setName("other");
        assertThat(seed.getMetadata().getLabels()).doesNotContainKey("changed");
        assertThat(seed.getMetadata().getName()).isEqualTo("pytorch-test");
    }

    @Test
    void unknownKindIsRejectedNamingWhatMusterAccepts() {
        assertThatThrownBy(() -> Manifests.read("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessage("unknown kind \"Job\" (apiVersion \"batch/v1\"); Muster accepts PyTorchJob (kubeflow.org/v1),"
                        + " PropagationPolicy (policy.one.alibabacloud.com/v1alpha1),"
                        + " ElasticQuotaTree (scheduling.sigs.k8s.io/v1beta1), Queue (scheduling.x-k8s.io/v1alpha1),"
                        + " QueueUnit (scheduling.x-k8s.io/v1alpha1)");
    }

    @Test
    void aFieldOfTheWrongTypeIsRejectedWithItsPath() {
        assertThatThrownBy(() -> Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  pytorchReplicaSpecs:
                    Worker: {replicas: two}
                """))
                .isInstanceOf(ManifestException.class)
                .hasMessage("cannot read PyTorchJob: spec.pytorchReplicaSpecs.Worker.replicas: expected an integer, got \"two\"");
    }

    @Test
    void textThatIsNotYamlIsRejected() {
        assertThatThrownBy(() -> Manifests.read("apiVersion: [unclosed"))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("cannot parse manifest as YAML or JSON: ");
    }

    @Test
    void emptyMissingKindAndSeveralDocumentsAreEachRejected() {
        assertThatThrownBy(() -> Manifests.read("  \n")).hasMessage("manifest is empty");
        assertThatThrownBy(() -> Manifests.read("metadata: {name: x}"))
                .hasMessage("manifest must have apiVersion and kind, got apiVersion \"\" and kind \"\"");
        assertThatThrownBy(() -> Manifests.read("- 1\n- 2\n"))
                .hasMessage("manifest must be an object with apiVersion and kind, got ARRAY");
        String two = SeedManifests.text(SeedManifests.POLICY_GANG) + "---\n" + SeedManifests.text(SeedManifests.PYTORCH_JOB);
        assertThatThrownBy(() -> Manifests.read(two)).hasMessage("expected one manifest, found 2 documents");
    }

    @Test
    void askingForOneKindAndGettingAnotherIsAnError() {
        assertThatThrownBy(() -> Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), ElasticQuotaTree.class))
                .hasMessage("expected kind ElasticQuotaTree, got PyTorchJob");
    }

    @Test
    void yamlWrittenForAJobReadsBackAsTheSameJobStringsThatLookLikeNumbersStayStrings() {
        PyTorchJob job = Manifests.read(SeedManifests.text(SeedManifests.PYTORCH_JOB), PyTorchJob.class);

        String yaml = Manifests.toYaml(job);

        assertThat(yaml).contains("value: \"0\"", "value: \"8\"");
        assertThat(Manifests.toJson(Manifests.read(yaml, PyTorchJob.class))).isEqualTo(Manifests.toJson(job));
    }
}
