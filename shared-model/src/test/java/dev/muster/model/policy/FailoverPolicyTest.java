package dev.muster.model.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.policy.FailoverPolicy.PurgeMode;

class FailoverPolicyTest {

    private static PropagationPolicy policy(String failover) {
        return Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata:
                  name: example-policy
                  namespace: default
                spec:
                  resourceSelectors:
                  - apiVersion: kubeflow.org/v1
                    kind: PyTorchJob
                """ + failover, PropagationPolicy.class);
    }

    @Test
    void theSeedPolicyMovesAJobUnhealthyForThirtySecondsAndPurgesAtOnce() {
        PropagationPolicy seed = policy("""
                  failover:
                    application:
                      decisionConditions:
                        tolerationSeconds: 30
                      purgeMode: Immediately
                """);

        assertThat(FailoverPolicy.of(seed)).contains(new FailoverPolicy(Duration.ofSeconds(30), PurgeMode.IMMEDIATELY));
    }

    @Test
    void unsaidPartsTakeKarmadasDefaults() {
        assertThat(FailoverPolicy.of(policy("""
                  failover:
                    application: {}
                """))).contains(new FailoverPolicy(Duration.ofSeconds(300), PurgeMode.GRACIOUSLY));
    }

    @Test
    void aPolicyWithoutFailoverAsksForNone() {
        assertThat(FailoverPolicy.of(policy(""))).isEmpty();
        assertThat(FailoverPolicy.of((PropagationPolicy) null)).isEmpty();
    }
}
