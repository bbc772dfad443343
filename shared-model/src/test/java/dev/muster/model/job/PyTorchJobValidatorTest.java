package dev.muster.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.validation.Violation;

class PyTorchJobValidatorTest {

    private static List<String> violations(String manifest) {
        return PyTorchJobValidator.validate(Manifests.read(manifest, PyTorchJob.class)).stream().map(Violation::toString).toList();
    }

    private static String job(String replicaSpecs) {
        return """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: job-1, namespace: default}
                spec:
                  pytorchReplicaSpecs:
                """ + replicaSpecs.indent(4);
    }

    @Test
    void theSeedJobIsValid() {
        assertThat(violations(SeedManifests.text(SeedManifests.PYTORCH_JOB))).isEmpty();
    }

    @Test
    void negativeReplicasAreRejectedWithTheValue() {
        assertThat(violations(job("""
                Worker:
                  replicas: -1
                  template: {spec: {containers: [{name: pytorch, image: i}]}}
                """))).containsExactly("spec.pytorchReplicaSpecs.Worker.replicas: must be >= 0, got -1");
    }

    @Test
    void aNullContainerIsRejectedWithItsPlaceNotFailedOn() {
        assertThat(violations(job("""
                Worker:
                  replicas: 2
                  template: {spec: {containers: [{name: pytorch, image: i}, null], initContainers: [null]}}
                """))).containsExactly("spec.pytorchReplicaSpecs.Worker.template.spec.containers[1]: must be a container, got null",
                "spec.pytorchReplicaSpecs.Worker.template.spec.initContainers[0]: must be a container, got null");
    }

    @Test
    void anUnparsableQuantityIsRejectedWithItsFullPath() {
        assertThat(violations(job("""
                Worker:
                  replicas: 2
                  template:
                    spec:
                      containers:
                      - name: pytorch
                        image: i
                        resources: {requests: {cpu: two, memory: -1Gi}}
                """))).containsExactly(
                "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.requests.cpu: cannot parse quantity \"two\"",
                "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.requests.memory: must not be negative, got -1Gi");
    }

    @Test
    void zeroReplicasInTotalIsRejected() {
        assertThat(violations(job("""
                Master:
                  replicas: 0
                  template: {spec: {containers: [{name: pytorch, image: i}]}}
                Worker:
                  replicas: 0
                  template: {spec: {containers: [{name: pytorch, image: i}]}}
                """))).containsExactly("spec.pytorchReplicaSpecs: total replicas must be > 0, got 0");
    }

    @Test
    void whatTheTrainingOperatorWouldRejectIsRejectedAtTheFleet() {
        assertThat(violations(job("""
                Master:
                  replicas: 2
                  restartPolicy: Sometimes
                  template: {spec: {containers: [{name: trainer, image: i}]}}
                Chief:
                  replicas: 1
                Worker:
                  template: {spec: {containers: [{name: pytorch}]}}
                """))).containsExactly(
                "spec.pytorchReplicaSpecs.Master.replicas: must be 0 or 1 for Master, got 2",
                "spec.pytorchReplicaSpecs.Master.restartPolicy: must be one of Always, OnFailure, Never, ExitCode, got \"Sometimes\"",
                "spec.pytorchReplicaSpecs.Master.template.spec.containers: must include a container named \"pytorch\"",
                "spec.pytorchReplicaSpecs.Chief: unknown replica type, must be one of Master, Worker",
                "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].image: is required");
    }

    @Test
    void aRequestAboveItsLimitIsRejected() {
        assertThat(violations(job("""
                Worker:
                  template:
                    spec:
                      containers:
                      - {name: pytorch, image: i, resources: {requests: {cpu: "4"}, limits: {cpu: 2}}}
                """))).containsExactly(
                "spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].resources.requests.cpu: must be less than or equal to cpu limit 2, got 4");
    }

    @Test
    void missingSpecsAndBadNamesAreRejected() {
        assertThat(violations("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: My_Job}
                spec: {}
                """)).containsExactly(
                "metadata.name: must be a DNS-1035 label (lower case letters, digits and '-', starting with a letter,"
                        + " at most 63 characters), got \"My_Job\"",
                "spec.pytorchReplicaSpecs: must define at least one replica type (Master, Worker)");
        assertThat(violations("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {namespace: default}
                """)).containsExactly("metadata.name: is required", "spec: is required");
    }

    @Test
    void minAvailableMustBeWithinTheGang() {
        assertThat(violations("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: j}
                spec:
                  runPolicy: {schedulingPolicy: {minAvailable: 4}}
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 3
                      template: {spec: {containers: [{name: pytorch, image: i}]}}
                """)).containsExactly("spec.runPolicy.schedulingPolicy.minAvailable: must be between 1 and the total replicas 3, got 4");
    }
}
