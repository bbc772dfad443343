package dev.muster.placement.core.topology;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.muster.gangfit.NodeIndex;
import dev.muster.gangfit.NodeState;

/**
 * One cluster's nodes grouped into the domains of each topology level asked for, each domain indexed for packing as
 * the whole cluster is. Kept from one read to the next: rebuilt only when the cluster's index is a new one, and then
 * a domain none of whose nodes changed keeps its index, so a change costs the grouping and the domains it touched.
 */
public final class TopologyDomains {

    private NodeIndex groupedFrom;
    private final Map<String, Map<String, NodeIndex>> byLevel = new HashMap<>();

    /**
     * The domains of {@code level} in the cluster whose nodes {@code index} holds, by label value, fewest free GPUs first
     * (then by value); nodes without the label are in none.
     */
    public synchronized Map<String, NodeIndex> of(NodeIndex index, String level) {
        if (index != groupedFrom) {
            groupedFrom = index;
            Map<String, Map<String, NodeIndex>> previous = new HashMap<>(byLevel);
            byLevel.clear();
            previous.forEach((label, domains) -> byLevel.put(label, group(index, label, domains)));
        }
        return byLevel.computeIfAbsent(level, label -> group(index, label, Map.of()));
    }

    /** The domains of {@code level} among the nodes of {@code index}, each domain's index built afresh or kept from {@code previous}. */
    public static Map<String, NodeIndex> group(NodeIndex index, String level, Map<String, NodeIndex> previous) {
        Map<String, List<NodeState>> members = new TreeMap<>();
        for (NodeState node : index.nodes()) {
            String value = node.labels().get(level);
            if (value != null) {
                members.computeIfAbsent(value, domain -> new ArrayList<>()).add(node);
            }
        }
        List<Map.Entry<String, NodeIndex>> indexed = new ArrayList<>(members.size());
        members.forEach((value, nodes) -> {
            NodeIndex before = previous.get(value);
            indexed.add(Map.entry(value, before != null && sameNodes(before.nodes(), nodes) ? before : NodeIndex.of(nodes, before)));
        });
        // Fewest GPUs free first, the order in which a gang is tried on them (see DomainFit); by value among equals.
        indexed.sort(Comparator.comparing((Map.Entry<String, NodeIndex> domain) -> domain.getValue().freeGpu()).thenComparing(Map.Entry::getKey));
        Map<String, NodeIndex> domains = new LinkedHashMap<>();
        indexed.forEach(domain -> domains.put(domain.getKey(), domain.getValue()));
        return domains;
    }

    /** The same node states, in the same (name) order: the index of the domain would be the same. */
    private static boolean sameNodes(List<NodeState> indexed, List<NodeState> nodes) {
        if (indexed.size() != nodes.size()) {
            return false;
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (indexed.get(i) != nodes.get(i)) {
                return false;
            }
        }
        return true;
    }
}
