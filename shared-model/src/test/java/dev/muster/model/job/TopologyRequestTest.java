package dev.muster.model.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.validation.Violation;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;

class TopologyRequestTest {

    private static final String RACK = "cloud.provider.com/topology-rack";

    private static PyTorchJob job(String masterAnnotations, String workerAnnotations) {
        return Manifests.read("""
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata: {name: job-1, namespace: default}
                spec:
                  pytorchReplicaSpecs:
                    Master:
                      replicas: 1
                      template:
                        metadata: {annotations: %s}
                        spec: {containers: [{name: pytorch, image: i}]}
                    Worker:
                      replicas: 2
                      template:
                        metadata: {annotations: %s}
                        spec:
                          containers: [{name: pytorch, image: i}]
                          affinity:
                            nodeAffinity:
                              requiredDuringSchedulingIgnoredDuringExecution:
                                nodeSelectorTerms:
                                - matchExpressions: [{key: gpu, operator: In, values: [a100]}]
                                - matchExpressions: [{key: gpu, operator: In, values: [h100]}]
                """.formatted(masterAnnotations, workerAnnotations), PyTorchJob.class);
    }

    private static List<String> violations(PyTorchJob job) {
        return PyTorchJobValidator.validate(job).stream().map(Violation::toString).toList();
    }

    @Test
    void kueuesAnnotationsOnTheTemplatesAskForTheWholeGang() {
        PyTorchJob required = job("{}", "{kueue.x-k8s.io/podset-required-topology: " + RACK + "}");
        PyTorchJob preferred = job("{kueue.x-k8s.io/podset-preferred-topology: " + RACK + "}",
                "{kueue.x-k8s.io/podset-preferred-topology: " + RACK + "}");

        assertThat(violations(required)).isEmpty();
        assertThat(TopologyRequest.of(required)).contains(new TopologyRequest(RACK, true));
        assertThat(TopologyRequest.of(preferred)).contains(new TopologyRequest(RACK, false));
        assertThat(TopologyRequest.of(job("{}", "{}"))).isEmpty();
    }

    @Test
    void aLevelThatIsNoLabelKeyBothKindsOnOneTemplateAndTemplatesThatDisagreeAreRefusedByName() {
        assertThat(violations(job("{}", "{kueue.x-k8s.io/podset-required-topology: 'not a label'}"))).containsExactly(
                "spec.pytorchReplicaSpecs.Worker.template.metadata.annotations.kueue.x-k8s.io/podset-required-topology: must be a node label"
                        + " key naming a topology level (such as cloud.provider.com/topology-rack), got \"not a label\"");
        assertThat(violations(job("{}", "{kueue.x-k8s.io/podset-required-topology: " + RACK + ", kueue.x-k8s.io/podset-preferred-topology: "
                + RACK + "}"))).containsExactly("spec.pytorchReplicaSpecs.Worker.template.metadata.annotations: must name either "
                + "kueue.x-k8s.io/podset-required-topology or kueue.x-k8s.io/podset-preferred-topology, not both");
        PyTorchJob disagreeing = job("{kueue.x-k8s.io/podset-required-topology: cloud.provider.com/topology-block}",
                "{kueue.x-k8s.io/podset-required-topology: " + RACK + "}");
        assertThat(violations(disagreeing)).containsExactly("spec.pytorchReplicaSpecs: the whole gang is placed in one topology domain, so"
                + " every template that names a level must name the same one, got Master requires cloud.provider.com/topology-block, Worker"
                + " requires " + RACK);
        assertThat(TopologyRequest.of(disagreeing)).isEmpty();
    }

    @Test
    void confiningACopyAddsTheDomainToEachOfItsPodsOwnTermsOrMakesOne() {
        PyTorchJob copy = TopologyRequestTest.job("{}", "{}");
        new TopologyDomain(RACK, "r3").confine(copy);

        NodeSelectorRequirement inRack = new NodeSelectorRequirement(RACK, "In", List.of("r3"));
        assertThat(copy.getSpec().pytorchReplicaSpecs().get("Master").template().getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()).singleElement()
                .satisfies(term -> assertThat(term.getMatchExpressions()).containsExactly(inRack));
        assertThat(copy.getSpec().pytorchReplicaSpecs().get("Worker").template().getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms())
                .allSatisfy(term -> assertThat(term.getMatchExpressions()).hasSize(2).endsWith(inRack))
                .hasSize(2);
    }
}
