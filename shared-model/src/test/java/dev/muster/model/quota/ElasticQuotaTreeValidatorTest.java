package dev.muster.model.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.muster.model.json.Manifests;
import dev.muster.model.json.SeedManifests;
import dev.muster.model.validation.Violation;

class ElasticQuotaTreeValidatorTest {

    private static List<String> violations(String manifest) {
        return ElasticQuotaTreeValidator.validate(Manifests.read(manifest, ElasticQuotaTree.class)).stream()
                .map(Violation::toString).toList();
    }

    private static String tree(String namespace, String root) {
        return """
                apiVersion: scheduling.sigs.k8s.io/v1beta1
                kind: ElasticQuotaTree
                metadata: {name: elasticquotatree, namespace: %s}
                spec:
                  root:
                """.formatted(namespace) + root.indent(4);
    }

    @Test
    void theSeedTreeIsValid() {
        assertThat(violations(SeedManifests.text(SeedManifests.ELASTIC_QUOTA_TREE))).isEmpty();
    }

    @Test
    void aTreeOutsideKubeSystemIsRejected() {
        assertThat(violations(tree("default", "name: root"))).containsExactly(
                "metadata.namespace: ElasticQuotaTree must be in namespace kube-system, got \"default\"");
    }

    @Test
    void aChildsMaxAboveItsParentsIsRejected() {
        assertThat(violations(tree("kube-system", """
                name: root
                max: {cpu: 10, memory: 10Gi}
                children:
                - name: team-a
                  max: {cpu: 20, memory: 10Gi}
                  namespaces: [a]
                """))).containsExactly("spec.root.children[0].max.cpu: must not exceed parent \"root\" max 10, got 20");
    }

    @Test
    void duplicateNodeNamesAreRejectedNamingBothPlaces() {
        assertThat(violations(tree("kube-system", """
                name: root
                children:
                - name: team
                  namespaces: [a]
                - name: team
                  namespaces: [b]
                """))).containsExactly(
                "spec.root.children[1].name: duplicate quota node name \"team\" (also at spec.root.children[0])");
    }

    @Test
    void aNamespaceBoundToTwoLeavesIsRejected() {
        assertThat(violations(tree("kube-system", """
                name: root
                children:
                - name: team-a
                  namespaces: [default, a]
                - name: team-b
                  namespaces: [default]
                """))).containsExactly(
                "spec.root.children[1].namespaces: namespace \"default\" is bound to both \"team-a\" and \"team-b\"");
    }

    @Test
    void minAboveMaxAndGuaranteesAboveTheParentsAreRejected() {
        assertThat(violations(tree("kube-system", """
                name: root
                max: {nvidia.com/gpu: 16}
                min: {nvidia.com/gpu: 16}
                children:
                - name: team-a
                  max: {nvidia.com/gpu: 8}
                  min: {nvidia.com/gpu: 12}
                  namespaces: [a]
                - name: team-b
                  max: {nvidia.com/gpu: 16}
                  min: {nvidia.com/gpu: 8}
                  namespaces: [b]
                """))).containsExactly(
                "spec.root.children[0].min.nvidia.com/gpu: must not exceed max 8, got 12",
                "spec.root.children: sum of children's min nvidia.com/gpu 20 exceeds this node's min 16");
    }

    @Test
    void badQuantitiesNamespacesOnInnerNodesAndMissingNamesAreRejected() {
        assertThat(violations(tree("kube-system", """
                name: root
                namespaces: [x]
                max: {cpu: lots}
                children:
                - max: {memory: -1}
                """))).containsExactly(
                "spec.root.max.cpu: cannot parse quantity \"lots\"",
                "spec.root.namespaces: only leaf nodes can bind namespaces; \"root\" has children",
                "spec.root.children[0].name: is required",
                "spec.root.children[0].max.memory: must not be negative, got -1");
    }
}
