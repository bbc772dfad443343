package dev.muster.model.job;

import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;

/**
 * One domain of a topology level on a member: the nodes whose label {@code level} has the value {@code value}.
 *
 * @param level a node label, e.g. {@code cloud.provider.com/topology-rack}
 * @param value its value on the domain's nodes, e.g. {@code r3}
 */
public record TopologyDomain(String level, String value) {

    /**
     * Confines every pod of a member copy to the domain with a required node affinity, so that the member's scheduler
     * cannot spread the gang over other domains (its reservations hold nodes inside it, but a pod that outlives them
     * must not land elsewhere). Added to each of the pod's own node selector terms, which stay as they are otherwise.
     */
    public PyTorchJob confine(PyTorchJob copy) {
        NodeSelectorRequirement inDomain = new NodeSelectorRequirement(level, "In", List.of(value));
        copy.getSpec().pytorchReplicaSpecs().values().forEach(replica -> {
            PodSpec pod = replica.template().getSpec();
            Affinity affinity = pod.getAffinity() == null ? new Affinity() : pod.getAffinity();
            NodeAffinity nodeAffinity = affinity.getNodeAffinity() == null ? new NodeAffinity() : affinity.getNodeAffinity();
            NodeSelector required = nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution();
            List<NodeSelectorTerm> terms = new ArrayList<>();
            if (required == null || required.getNodeSelectorTerms() == null || required.getNodeSelectorTerms().isEmpty()) {
                terms.add(new NodeSelectorTerm(List.of(inDomain), null));
            } else {
                for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
                    List<NodeSelectorRequirement> expressions = new ArrayList<>(term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions());
                    expressions.add(inDomain);
                    terms.add(new NodeSelectorTerm(expressions, term.getMatchFields()));
                }
            }
            nodeAffinity.setRequiredDuringSchedulingIgnoredDuringExecution(new NodeSelector(terms));
            affinity.setNodeAffinity(nodeAffinity);
            pod.setAffinity(affinity);
        });
        return copy;
    }

    @Override
    public String toString() {
        return level + "=" + value;
    }
}
