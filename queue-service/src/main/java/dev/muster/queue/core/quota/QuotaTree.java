package dev.muster.queue.core.quota;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.quota.ElasticQuotaTreeValidator;
import dev.muster.model.quota.QueueNames;
import dev.muster.model.quota.QuotaNode;
import dev.muster.model.resource.ResourceList;
import dev.muster.model.validation.InvalidObjectException;
import dev.muster.model.validation.Violation;

/**
 * A validated ElasticQuotaTree as the quota core reads it: nodes by name with their path from the root,
 * limits parsed, and each namespace's leaf. Immutable.
 */
public final class QuotaTree {

    /**
     * One node.
     *
     * @param path  node names from the root to this node
     * @param max   the most its subtree may use, {@code kube-queue/max-jobs} included; names absent are unlimited
     * @param min   its guaranteed share; names absent are guaranteed nothing
     * @param queue the name of its Kube Queue {@code Queue}
     */
    public record Node(String name, List<String> path, List<String> children, ResourceList max, ResourceList min,
                       Set<String> namespaces, String queue) {

        public boolean isLeaf() {
            return children.isEmpty();
        }

        /** The path for people, e.g. {@code root/child-2}. */
        public String pathText() {
            return String.join("/", path);
        }
    }

    private final Map<String, Node> nodes;
    private final Map<String, String> leafOfNamespace;
    private final ReclaimPolicy reclaim;
    private final FairSharing fairSharing;
    private final boolean guarantees;
    /** Each node's path to the root, worked out once: every pass asks it of every queue. */
    private final Map<String, List<Node>> pathsToRoot;

    private QuotaTree(Map<String, Node> nodes, Map<String, String> leafOfNamespace, ReclaimPolicy reclaim, FairSharing fairSharing) {
        this.nodes = Collections.unmodifiableMap(nodes);
        this.leafOfNamespace = Map.copyOf(leafOfNamespace);
        this.reclaim = reclaim;
        this.fairSharing = fairSharing;
        this.guarantees = nodes.values().stream().anyMatch(node -> !node.min().isEmpty());
        Map<String, List<Node>> paths = new java.util.HashMap<>();
        for (Node node : nodes.values()) {
            List<Node> path = new ArrayList<>(node.path().size());
            for (int i = node.path().size() - 1; i >= 0; i--) {
                path.add(nodes.get(node.path().get(i)));
            }
            paths.put(node.name(), List.copyOf(path));
        }
        this.pathsToRoot = paths;
    }

    /**
     * Reads a tree.
     *
     * @throws InvalidObjectException with every violation, when the tree is invalid
     */
    public static QuotaTree of(ElasticQuotaTree tree) {
        List<Violation> violations = new ArrayList<>(ElasticQuotaTreeValidator.validate(tree));
        Map<String, String> annotations = tree.getMetadata() == null || tree.getMetadata().getAnnotations() == null
                ? Map.of() : tree.getMetadata().getAnnotations();
        String reclaimText = annotations.get(ReclaimPolicy.ANNOTATION);
        Optional<ReclaimPolicy> reclaim = reclaimText == null ? Optional.of(ReclaimPolicy.PREEMPT) : ReclaimPolicy.fromText(reclaimText);
        if (reclaim.isEmpty()) {
            violations.add(new Violation("metadata.annotations." + ReclaimPolicy.ANNOTATION,
                    "must be Preempt or Never, got \"" + reclaimText + "\""));
        }
        Set<String> names = new java.util.HashSet<>();
        if (tree.getSpec() != null && tree.getSpec().root() != null) {
            collectNames(tree.getSpec().root(), names);
        }
        FairSharing fairSharing = FairSharing.read(annotations, names, violations);
        if (!violations.isEmpty()) {
            String name = tree.getMetadata() == null ? "" : tree.getMetadata().getName();
            throw new InvalidObjectException("ElasticQuotaTree " + name, violations);
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        Map<String, String> leaves = new LinkedHashMap<>();
        add(tree.getSpec().root(), List.of(), nodes, leaves);
        return new QuotaTree(nodes, leaves, reclaim.get(), fairSharing);
    }

    private static void collectNames(QuotaNode node, Set<String> names) {
        names.add(node.name());
        node.childNodes().forEach(child -> collectNames(child, names));
    }

    private static void add(QuotaNode node, List<String> parentPath, Map<String, Node> nodes, Map<String, String> leaves) {
        List<String> path = new ArrayList<>(parentPath);
        path.add(node.name());
        List<String> children = node.childNodes().stream().map(QuotaNode::name).toList();
        nodes.put(node.name(), new Node(node.name(), List.copyOf(path), children, node.maxResources(), node.minResources(),
                Set.copyOf(node.boundNamespaces()), QueueNames.of(path)));
        node.boundNamespaces().forEach(namespace -> leaves.put(namespace, node.name()));
        node.childNodes().forEach(child -> add(child, path, nodes, leaves));
    }

    /** The leaf whose {@code namespaces} list this namespace. */
    public Optional<Node> leafFor(String namespace) {
        return Optional.ofNullable(leafOfNamespace.get(namespace)).map(nodes::get);
    }

    public Optional<Node> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    /** The nodes from this one up to the root. */
    public List<Node> pathToRoot(Node node) {
        return pathsToRoot.get(node.name());
    }

    /** Every node, root first, depth first. */
    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }

    public ReclaimPolicy reclaim() {
        return reclaim;
    }

    public FairSharing fairSharing() {
        return fairSharing;
    }

    /** The node's parent; empty for the root. */
    public Optional<Node> parent(Node node) {
        return node.path().size() < 2 ? Optional.empty() : node(node.path().get(node.path().size() - 2));
    }

    /** Whether any node guarantees a {@code min}; without one no job is ever within a guarantee. */
    public boolean hasGuarantees() {
        return guarantees;
    }
}
