package dev.muster.model.quota;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import dev.muster.model.json.UnknownFields;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * One node of the quota tree.
 *
 * @param max        the most its subtree may use at once, per resource; a resource not named is unlimited here
 * @param min        the guaranteed share; more is borrowed from siblings' unused guarantee
 * @param children   sub-nodes; a node without children is a leaf
 * @param namespaces on a leaf, the namespaces whose jobs are charged to it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"name", "max", "min", "children", "namespaces"})
public record QuotaNode(
        String name,
        Map<String, Quantity> max,
        Map<String, Quantity> min,
        List<QuotaNode> children,
        List<String> namespaces,
        @JsonAnySetter @JsonAnyGetter Map<String, Object> additionalProperties) {

    public QuotaNode {
        additionalProperties = UnknownFields.copyOf(additionalProperties);
    }

    public QuotaNode(String name, Map<String, Quantity> max, Map<String, Quantity> min,
                     List<QuotaNode> children, List<String> namespaces) {
        this(name, max, min, children, namespaces, Map.of());
    }

    @JsonIgnore
    public boolean isLeaf() {
        return children == null || children.isEmpty();
    }

    /** The children, never null. */
    public List<QuotaNode> childNodes() {
        return children == null ? List.of() : children;
    }

    /** The bound namespaces, never null. */
    public List<String> boundNamespaces() {
        return namespaces == null ? List.of() : namespaces;
    }

    /** {@link #max()} parsed; call only on a node of a tree {@link ElasticQuotaTreeValidator} accepted. */
    public ResourceList maxResources() {
        return ResourceList.fromQuantities(max);
    }

    /** {@link #min()} parsed; call only on a node of a tree {@link ElasticQuotaTreeValidator} accepted. */
    public ResourceList minResources() {
        return ResourceList.fromQuantities(min);
    }
}
