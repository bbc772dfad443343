package dev.muster.model.quota;

import dev.muster.model.config.ConfigStatus;
import io.fabric8.crd.generator.annotation.SchemaSwap;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/** The fleet's single hierarchical quota ({@code scheduling.sigs.k8s.io/v1beta1 ElasticQuotaTree}, in {@code kube-system}). */
@Group(ElasticQuotaTree.GROUP)
@Version(ElasticQuotaTree.VERSION)
@Kind(ElasticQuotaTree.KIND)
@Plural("elasticquotatrees")
// A structural schema cannot nest without end: below five levels of children, nodes are kept as they come (the queue checks them).
@SchemaSwap(originalType = QuotaNode.class, fieldName = "children", depth = 5)
public class ElasticQuotaTree extends CustomResource<ElasticQuotaTreeSpec, ConfigStatus> implements Namespaced {

    public static final String GROUP = "scheduling.sigs.k8s.io";
    public static final String VERSION = "v1beta1";
    public static final String KIND = "ElasticQuotaTree";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    /** The only namespace a tree may live in. */
    public static final String NAMESPACE = "kube-system";
}
