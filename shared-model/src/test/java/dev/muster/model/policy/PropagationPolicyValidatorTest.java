package dev.muster.model.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.validation.Violation;

class PropagationPolicyValidatorTest {

    private static List<String> violations(String manifest) {
        return PropagationPolicyValidator.validate(Manifests.read(manifest, PropagationPolicy.class)).stream()
                .map(Violation::toString).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {SeedManifests.POLICY_GANG, SeedManifests.POLICY_GANG_QUEUE})
    void theSeedPoliciesAreValid(String name) {
        assertThat(violations(SeedManifests.text(name))).isEmpty();
    }

    @Test
    void onlyTheQueuedSeedPolicySuspendsScheduling() {
        assertThat(Manifests.read(SeedManifests.text(SeedManifests.POLICY_GANG_QUEUE), PropagationPolicy.class).getSpec().queued()).isTrue();
        assertThat(Manifests.read(SeedManifests.text(SeedManifests.POLICY_GANG), PropagationPolicy.class).getSpec().queued()).isFalse();
    }

    @Test
    void unknownModesAndIncompleteSelectorsAreRejected() {
        assertThat(violations("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: p, namespace: default}
                spec:
                  resourceSelectors: [{kind: PyTorchJob}]
                  placement: {replicaScheduling: {replicaSchedulingType: Split, customSchedulingType: Batch}}
                  failover: {application: {purgeMode: Later, decisionConditions: {tolerationSeconds: -5}}}
                """)).containsExactly(
                "spec.resourceSelectors[0].apiVersion: is required",
                "spec.placement.replicaScheduling.replicaSchedulingType: must be one of Divided, Duplicated, got \"Split\"",
                "spec.placement.replicaScheduling.customSchedulingType: must be Gang, got \"Batch\"",
                "spec.failover.application.purgeMode: must be one of Immediately, Graciously, Never, got \"Later\"",
                "spec.failover.application.decisionConditions.tolerationSeconds: must be >= 0, got -5");
    }

    @Test
    void aPolicyWithoutSelectorsSelectsNothingAndIsRejected() {
        assertThat(violations("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: p, namespace: default}
                spec: {placement: {}}
                """)).containsExactly("spec.resourceSelectors: must have at least one selector");
    }
}
