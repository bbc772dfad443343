package dev.muster.model.json;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.quota.ElasticQuotaTree;

class UnknownFieldsTest {

    @Test
    void fieldsMusterDoesNotModelSurviveAtEveryLevelOfAJob() throws Exception {
        String manifest = """
                apiVersion: kubeflow.org/v1
                kind: PyTorchJob
                metadata:
                  name: future
                  namespace: default
                spec:
                  elasticPolicy: {minReplicas: 1, maxReplicas: 4, rdzvBackend: c10d}
                  nprocPerNode: "8"
                  runPolicy:
                    cleanPodPolicy: None
                    futureRunField: 7
                    schedulingPolicy: {queue: q1, futureSchedulingField: [a, b]}
                  pytorchReplicaSpecs:
                    Worker:
                      replicas: 2
                      futureReplicaField: {nested: true}
                      template:
                        spec:
                          futurePodField: x
                          containers:
                          - name: pytorch
                            image: img
                            futureContainerField: y
                status:
                  futureStatusField: z
                  explicitNull: null
                  conditions:
                  - type: Created
                    status: "True"
                """;

        PyTorchJob job = Manifests.read(manifest, PyTorchJob.class);
        JsonNode written = MusterJson.json().readTree(Manifests.toJson(job));

        assertThat(written.at("/spec/elasticPolicy/rdzvBackend").asText()).isEqualTo("c10d");
        assertThat(written.at("/spec/nprocPerNode").asText()).isEqualTo("8");
        assertThat(written.at("/spec/runPolicy/futureRunField").asInt()).isEqualTo(7);
        assertThat(written.at("/spec/runPolicy/schedulingPolicy/futureSchedulingField/1").asText()).isEqualTo("b");
        assertThat(written.at("/spec/pytorchReplicaSpecs/Worker/futureReplicaField/nested").asBoolean()).isTrue();
        assertThat(written.at("/spec/pytorchReplicaSpecs/Worker/template/spec/futurePodField").asText()).isEqualTo("x");
        assertThat(written.at("/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/futureContainerField").asText())
                .isEqualTo("y");
        assertThat(written.at("/status/futureStatusField").asText()).isEqualTo("z");
        assertThat(written.at("/status").has("explicitNull")).as("an unknown field set to null is kept").isTrue();
    }

    @Test
    void fieldsMusterDoesNotModelSurviveInPoliciesAndQuotaTrees() throws Exception {
        PropagationPolicy policy = Manifests.read("""
                apiVersion: policy.one.alibabacloud.com/v1alpha1
                kind: PropagationPolicy
                metadata: {name: p, namespace: default}
                spec:
                  priority: 5
                  resourceSelectors: [{apiVersion: kubeflow.org/v1, kind: PyTorchJob, futureSelector: 1}]
                  placement:
                    spreadConstraints: [{maxGroups: 1}]
                    replicaScheduling: {replicaSchedulingType: Divided, weightPreference: {}}
                  failover: {application: {purgeMode: Graciously, gracePeriodSeconds: 60}}
                """, PropagationPolicy.class);
        ElasticQuotaTree tree = Manifests.read("""
                apiVersion: scheduling.sigs.k8s.io/v1beta1
                kind: ElasticQuotaTree
                metadata: {name: t, namespace: kube-system}
                spec:
                  root: {name: root, max: {cpu: 1}, min: {cpu: 1}, futureNodeField: keep}
                """, ElasticQuotaTree.class);

        JsonNode policyJson = MusterJson.json().readTree(Manifests.toJson(policy));
        JsonNode treeJson = MusterJson.json().readTree(Manifests.toJson(tree));

        assertThat(policyJson.at("/spec/priority").asInt()).isEqualTo(5);
        assertThat(policyJson.at("/spec/resourceSelectors/0/futureSelector").asInt()).isEqualTo(1);
        assertThat(policyJson.at("/spec/placement/spreadConstraints/0/maxGroups").asInt()).isEqualTo(1);
        assertThat(policyJson.at("/spec/placement/replicaScheduling/weightPreference").isObject()).isTrue();
        assertThat(policyJson.at("/spec/failover/application/gracePeriodSeconds").asInt()).isEqualTo(60);
        assertThat(treeJson.at("/spec/root/futureNodeField").asText()).isEqualTo("keep");
    }
}
