package dev.muster.placement.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.client.KubernetesClientException;

class MemberWriterTest {

    @Test
    void aWriteWithNoAnswerOrAServerErrorMayHaveBeenMadeAndARefusalWasNot() {
        assertThat(MemberWriter.unanswered(new KubernetesClientException("An error has occurred.", new java.io.IOException("Connection was closed"))))
                .as("the connection cut").isTrue();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("timeout", 504, null))).as("a gateway timeout").isTrue();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("etcd", 500, null))).as("a server error").isTrue();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("later", 429, null))).as("asked to ask later").isTrue();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("invalid", 422, null))).as("refused as invalid").isFalse();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("forbidden", 403, null))).as("forbidden").isFalse();
        assertThat(MemberWriter.unanswered(new KubernetesClientException("no namespace", 404, null))).as("not found").isFalse();
    }
}
