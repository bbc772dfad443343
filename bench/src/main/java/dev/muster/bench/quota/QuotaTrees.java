package dev.muster.bench.quota;

import dev.muster.model.json.Manifests;
import dev.muster.model.quota.ElasticQuotaTree;

/** The benchmarks' ElasticQuotaTrees, written as the YAML a user applies. */
public final class QuotaTrees {

    private QuotaTrees() {
    }

    /**
     * The tree whose root node is {@code root}: YAML lines indented by four spaces, from {@code name: root} on
     * ({@code min}, {@code max}, {@code children}, each child indented as a list item under it).
     */
    public static ElasticQuotaTree withRoot(String root) {
        return withRoot(java.util.Map.of(), root);
    }

    /** The same, with these annotations on the tree (quoted as YAML strings). */
    public static ElasticQuotaTree withRoot(java.util.Map<String, String> annotations, String root) {
        ElasticQuotaTree tree = Manifests.read("""
                apiVersion: scheduling.sigs.k8s.io/v1beta1
                kind: ElasticQuotaTree
                metadata: {name: elasticquotatree, namespace: kube-system}
                spec:
                  root:
                """ + root, ElasticQuotaTree.class);
        if (!annotations.isEmpty()) {
            tree.getMetadata().setAnnotations(new java.util.TreeMap<>(annotations));
        }
        return tree;
    }
}
