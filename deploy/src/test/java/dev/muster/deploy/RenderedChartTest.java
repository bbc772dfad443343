package dev.muster.deploy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The check the chart's tests rest on: a field a model does not know, at any depth, is refused with where it is. */
class RenderedChartTest {

    @Test
    void aMisspeltFieldDeepInADeploymentIsRefused() {
        assertThatThrownBy(() -> RenderedChart.read("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: misspelt}
                spec:
                  replicas: 2
                  template:
                    spec:
                      containers:
                        - name: c
                          image: i
                          readinessProbe: {httpGet: {path: /q/health/ready, port: 8080}, periodSecond: 5}
                """)).isInstanceOf(AssertionError.class).hasMessageContaining("periodSecond").hasMessageContaining("ReadinessProbe");
    }

    @Test
    void aFieldStrimziDoesNotKnowIsRefused() {
        assertThatThrownBy(() -> RenderedChart.read("""
                apiVersion: kafka.strimzi.io/v1
                kind: KafkaUser
                metadata: {name: old}
                spec:
                  authentication: {type: scram-sha-512}
                  authorization:
                    type: simple
                    acls:
                      - resource: {type: topic, name: t, patternType: literal}
                        operations: [Read]
                        hosts: "*"
                """)).isInstanceOf(AssertionError.class).hasMessageContaining("hosts");
    }

    @Test
    void aKindTheTestsDoNotKnowIsRefused() {
        assertThatThrownBy(() -> RenderedChart.read("apiVersion: v1\nkind: Endpoints\nmetadata: {name: e}\n"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("v1/Endpoints");
    }
}
