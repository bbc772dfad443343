package dev.muster.model.event;

import dev.muster.model.quota.ElasticQuotaTree;

/** The ElasticQuotaTree was deleted. */
public record QuotaTreeDeleted(String namespace, String name) implements ConfigEventData {
    public QuotaTreeDeleted {
        if (namespace == null || name == null) {
            throw new IllegalArgumentException("namespace and name are required");
        }
    }


    @Override
    public String subject() {
        return namespace + "/" + name;
    }

    @Override
    public String key() {
        return ElasticQuotaTree.KIND + "/" + subject();
    }

    @Override
    public String summary() {
        return "ElasticQuotaTree " + subject() + " deleted";
    }
}
