package dev.muster.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.muster.model.job.JobDependencies.Dependency;
import dev.muster.model.json.Manifests;

class JobDependenciesTest {

    @Test
    void findsEveryConfigMapAndSecretThePodsReferenceOnce() {
        PyTorchJob job = Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: deps, namespace: default}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        spec:
                          imagePullSecrets: [{name: registry}]
                          volumes:
                          - {name: config, configMap: {name: train-config}}
                          - {name: creds, secret: {secretName: s3-credentials}}
                          - name: both
                            projected: {sources: [{configMap: {name: shared}}, {secret: {name: token}}]}
                          containers:
                          - name: pytorch
                            image: pytorch
                            env:
                            - {name: LR, valueFrom: {configMapKeyRef: {name: train-config, key: lr}}}
                            - {name: KEY, valueFrom: {secretKeyRef: {name: api-key, key: key}}}
                            - {name: PLAIN, value: "1"}
                    Worker:
                      replicas: 2
                      template:
                        spec:
                          initContainers: [{name: fetch, image: busybox, envFrom: [{secretRef: {name: s3-credentials}}]}]
                          containers: [{name: pytorch, image: pytorch, envFrom: [{configMapRef: {name: worker-env}}]}]
                """, PyTorchJob.class);

        assertThat(JobDependencies.of(job)).containsExactly(
                new Dependency("ConfigMap", "shared"), new Dependency("ConfigMap", "train-config"), new Dependency("ConfigMap", "worker-env"),
                new Dependency("Secret", "api-key"), new Dependency("Secret", "registry"), new Dependency("Secret", "s3-credentials"),
                new Dependency("Secret", "token"));
    }

    @Test
    void theSeedJobNeedsNothing() {
        PyTorchJob job = Manifests.read(dev.muster.model.json.SeedManifests.text(dev.muster.model.json.SeedManifests.PYTORCH_JOB), PyTorchJob.class);
        assertThat(JobDependencies.of(job)).isEmpty();
    }
}
