package dev.muster.queue.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.Manifests;
import dev.muster.model.policy.PropagationPolicy;

class PolicyResolverTest {

    private final PolicyResolver resolver = new PolicyResolver();

    private static PropagationPolicy policy(String namespace, String name, String selector) {
        return Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: %s, namespace: %s}
                spec:
                  resourceSelectors: [%s]
                """.formatted(name, namespace, selector), PropagationPolicy.class);
    }

    private static PyTorchJob job(String namespace, String name, String labels) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: %s, namespace: %s, labels: {%s}}
                """.formatted(name, namespace, labels), PyTorchJob.class);
    }

    private static final String KIND_ONLY = "{apiVersion: kubeflow.org/v1, kind: PyTorchJob}";

    @Test
    void aPolicySelectingTheKindAppliesToJobsOfItsOwnNamespaceOnly() {
        resolver.apply(policy("default", "example-policy", KIND_ONLY));

        assertThat(resolver.resolve(job("default", "pytorch-test", "app: pytorchjob"))).map(p -> p.getMetadata().getName())
                .contains("example-policy");
        assertThat(resolver.resolve(job("team-a", "pytorch-test", ""))).isEmpty();
    }

    @Test
    void aJobNoPolicySelectsIsNotMusters() {
        resolver.apply(policy("default", "jobs-only", "{apiVersion: batch/v1, kind: Job}"));

        assertThat(resolver.resolve(job("default", "pytorch-test", ""))).isEmpty();
    }

    @Test
    void theMostSpecificSelectorWinsNameOverLabelsOverKind() {
        resolver.apply(policy("default", "a-kind", KIND_ONLY));
        resolver.apply(policy("default", "b-labels", "{apiVersion: kubeflow.org/v1, kind: PyTorchJob, labelSelector: {matchLabels: {app: pytorchjob}}}"));
        resolver.apply(policy("default", "c-name", "{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: pytorch-test}"));

        assertThat(resolver.resolve(job("default", "pytorch-test", "app: pytorchjob"))).map(p -> p.getMetadata().getName()).contains("c-name");
        assertThat(resolver.resolve(job("default", "other", "app: pytorchjob"))).map(p -> p.getMetadata().getName()).contains("b-labels");
        assertThat(resolver.resolve(job("default", "other", "app: web"))).map(p -> p.getMetadata().getName()).contains("a-kind");
    }

    @Test
    void amongEquallySpecificPoliciesTheAlphabeticallyFirstWins() {
        resolver.apply(policy("default", "zeta", KIND_ONLY));
        resolver.apply(policy("default", "alpha", KIND_ONLY));

        assertThat(resolver.resolve(job("default", "j", ""))).map(p -> p.getMetadata().getName()).contains("alpha");
    }

    @Test
    void aReplacedOrDeletedPolicyNoLongerApplies() {
        resolver.apply(policy("default", "p", KIND_ONLY));
        resolver.apply(policy("default", "p", "{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: only-this}"));

        assertThat(resolver.resolve(job("default", "j", ""))).isEmpty();
        resolver.delete("default", "p");
        assertThat(resolver.policies()).isEmpty();
    }
}
