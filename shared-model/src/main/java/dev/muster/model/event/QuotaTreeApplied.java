package dev.muster.model.event;

import dev.muster.model.quota.ElasticQuotaTree;

/** The ElasticQuotaTree was created or updated. */
public record QuotaTreeApplied(ElasticQuotaTree tree) implements ConfigEventData {
    public QuotaTreeApplied {
        if (tree == null || tree.getMetadata() == null || tree.getMetadata().getName() == null) {
            throw new IllegalArgumentException("tree with metadata.name is required");
        }
    }


    @Override
    public String subject() {
        return tree.getMetadata().getNamespace() + "/" + tree.getMetadata().getName();
    }

    @Override
    public String key() {
        return ElasticQuotaTree.KIND + "/" + subject();
    }

    @Override
    public String summary() {
        return "ElasticQuotaTree " + subject() + " applied";
    }
}
