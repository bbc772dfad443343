package dev.muster.model.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.validation.Violation;
import dev.muster.model.validation.Violations;

/**
 * Checks an ElasticQuotaTree on its own: where it lives, node names, quantities, {@code min <= max},
 * children within their parent, and each namespace bound to at most one leaf. That it is the only tree
 * is checked by the queue service, which knows the others.
 */
public final class ElasticQuotaTreeValidator {

    private ElasticQuotaTreeValidator() {
    }

    /** Every violation found; empty when the tree is valid. */
    public static List<Violation> validate(ElasticQuotaTree tree) {
        Violations violations = new Violations();
        String namespace = tree.getMetadata() == null ? null : tree.getMetadata().getNamespace();
        if (!ElasticQuotaTree.NAMESPACE.equals(namespace)) {
            violations.add("metadata.namespace", "ElasticQuotaTree must be in namespace " + ElasticQuotaTree.NAMESPACE
                    + ", got " + (namespace == null ? "none" : "\"" + namespace + "\""));
        }
        if (tree.getSpec() == null || tree.getSpec().root() == null) {
            violations.add("spec.root", "is required");
            return violations.list();
        }
        new Walk(violations).node("spec.root", tree.getSpec().root(), null);
        return violations.list();
    }

    /** One pass over the tree, remembering where each node name and namespace was first seen. */
    private static final class Walk {

        private final Violations violations;
        private final Map<String, String> nodePaths = new HashMap<>();
        private final Map<String, String> namespaceLeaves = new HashMap<>();

        Walk(Violations violations) {
            this.violations = violations;
        }

        /** Checks one node and its subtree; returns the node's valid min, for the parent's sum. */
        ResourceList node(String path, QuotaNode node, Bounds parent) {
            String name = node.name();
            if (name == null || name.isBlank()) {
                violations.add(path + ".name", "is required");
            } else if (nodePaths.containsKey(name)) {
                violations.add(path + ".name", "duplicate quota node name \"" + name + "\" (also at " + nodePaths.get(name) + ")");
            } else {
                nodePaths.put(name, path);
            }
            ResourceList max = violations.quantities(path + ".max", node.max());
            ResourceList min = violations.quantities(path + ".min", node.min());
            for (String resource : min.exceeding(max)) {
                violations.add(path + ".min." + resource, "must not exceed max " + max.format(resource) + ", got " + min.format(resource));
            }
            if (parent != null) {
                for (String resource : max.exceeding(parent.max())) {
                    violations.add(path + ".max." + resource, "must not exceed parent \"" + parent.name() + "\" max "
                            + parent.max().format(resource) + ", got " + max.format(resource));
                }
            }
            bindNamespaces(path, node);
            List<QuotaNode> children = node.childNodes();
            ResourceList childMinimums = ResourceList.empty();
            for (int i = 0; i < children.size(); i++) {
                QuotaNode child = children.get(i);
                String childPath = path + ".children[" + i + "]";
                if (child == null) {
                    violations.add(childPath, "is required");
                    continue;
                }
                childMinimums = childMinimums.plus(node(childPath, child, new Bounds(name, max)));
            }
            // A guarantee cannot be promised twice: the children's guarantees must fit in the parent's.
            for (String resource : childMinimums.names()) {
                if (min.names(resource) && childMinimums.amount(resource).compareTo(min.amount(resource)) > 0) {
                    violations.add(path + ".children", "sum of children's min " + resource + " "
                            + childMinimums.format(resource) + " exceeds this node's min " + min.format(resource));
                }
            }
            return min;
        }

        private void bindNamespaces(String path, QuotaNode node) {
            List<String> namespaces = node.boundNamespaces();
            if (!namespaces.isEmpty() && !node.isLeaf()) {
                violations.add(path + ".namespaces", "only leaf nodes can bind namespaces; \"" + node.name() + "\" has children");
                return;
            }
            for (String namespace : namespaces) {
                String leaf = namespaceLeaves.putIfAbsent(namespace, node.name());
                if (leaf != null && !leaf.equals(node.name())) {
                    violations.add(path + ".namespaces", "namespace \"" + namespace + "\" is bound to both \""
                            + leaf + "\" and \"" + node.name() + "\"");
                }
            }
        }
    }

    private record Bounds(String name, ResourceList max) {
    }

}
