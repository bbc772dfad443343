package dev.muster.queue.core.quota;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import dev.muster.model.json.Manifests;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.resource.ResourceList;

/** Trees and jobs for quota tests, written the way users write them. */
final class QuotaFixtures {

    static final Instant T0 = Instant.parse("2026-11-29T17:00:00Z");

    /** The vendor document's tree: root with huge limits, child-2 admitting one job at a time for namespace default. */
    static final String SEED_TREE = """
            apiVersion: scheduling.sigs.k8s.io/v1beta1
            kind: ElasticQuotaTree
            metadata: {name: elasticquotatree, namespace: kube-system}
            spec:
              root:
                name: root
                max: {cpu: 999900, memory: 400000Gi, kube-queue/max-jobs: 10000000000, nvidia.com/gpu: 100000}
                min: {cpu: 999900, memory: 400000Gi, kube-queue/max-jobs: 10000000000, nvidia.com/gpu: 100000}
                children:
                - name: child-2
                  max: {kube-queue/max-jobs: 1, cpu: 10000, nvidia.com/gpu: 10000, memory: 10000Gi}
                  namespaces: [default]
            """;

    private QuotaFixtures() {
    }

    static QuotaTree tree(String yaml) {
        return QuotaTree.of(Manifests.read(yaml, ElasticQuotaTree.class));
    }

    /** A tree with the given root and children, written as YAML node bodies. */
    static QuotaTree tree(String annotations, String root) {
        return tree("""
                apiVersion: scheduling.sigs.k8s.io/v1beta1
                kind: ElasticQuotaTree
                metadata: {name: t, namespace: kube-system%s}
                spec:
                  root:
                """.formatted(annotations.isEmpty() ? "" : ", annotations: {" + annotations + "}") + root.indent(4));
    }

    static QuotaAdmission admission(QuotaTree tree) {
        return new QuotaAdmission(tree, new QuotaSettings(Duration.ofMinutes(10), Duration.ofSeconds(30), Set.of()));
    }

    private static long sequence;

    static QuotaJob job(String namespace, String name, Map<String, String> demand) {
        return job(namespace, name, demand, 0, T0);
    }

    static QuotaJob job(String namespace, String name, Map<String, String> demand, int priority, Instant submittedAt) {
        return new QuotaJob(namespace + "-" + name + "-uid", namespace, name, ResourceList.parse(demand), priority, submittedAt, ++sequence);
    }

    static Map<String, String> cpu(String amount) {
        return Map.of("cpu", amount);
    }

    static Map<String, String> gpu(String amount) {
        return Map.of("nvidia.com/gpu", amount);
    }
}
