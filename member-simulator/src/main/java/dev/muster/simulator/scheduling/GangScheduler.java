package dev.muster.simulator.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.muster.model.scheduling.GangPacker;
import dev.muster.model.scheduling.GangPlan;
import dev.muster.model.scheduling.NodeState;
import dev.muster.model.scheduling.NodeStates;
import dev.muster.model.scheduling.PodNeeds;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * The simulated member's scheduler, as a coscheduling scheduler behaves: pods of one pod group (the gang
 * labels Muster sets) bind all together once {@code min-available} of them exist, or all stay Pending with
 * the reason; a pod without the labels is a gang of one. Groups are decided oldest first, each against the
 * capacity the groups before it took. Plain Java: the controller feeds it what the API server holds.
 */
public final class GangScheduler {

    /** The pod-group name label, as the vendor's scheduler reads it. */
    public static final String POD_GROUP = "pod-group.scheduling.sigs.k8s.io/name";
    /** How many pods of the group must be placed together. */
    public static final String MIN_AVAILABLE = "pod-group.scheduling.sigs.k8s.io/min-available";

    /** What the scheduler decided for one pod. */
    public sealed interface Decision {
        Pod pod();
    }

    /** Bind the pod to the node. */
    public record Bind(Pod pod, String node) implements Decision {
    }

    /** The pod stays Pending; {@code message} says why, as the {@code PodScheduled=False} condition will. */
    public record Unschedulable(Pod pod, String message) implements Decision {
    }

    private GangScheduler() {
    }

    /** Decides every pending pod of the cluster at once. */
    public static List<Decision> schedule(List<Node> nodes, List<Pod> pods) {
        List<NodeState> free = new ArrayList<>(NodeStates.of(nodes, pods));
        List<Decision> decisions = new ArrayList<>();
        for (List<Pod> group : pendingGroups(pods)) {
            int minAvailable = minAvailable(group.get(0));
            if (group.size() < minAvailable) {
                String message = "pod group " + groupName(group.get(0)) + " has " + group.size() + " of its " + minAvailable
                        + " pods; waiting for the rest before scheduling any";
                group.forEach(pod -> decisions.add(new Unschedulable(pod, message)));
                continue;
            }
            List<PodNeeds> needs = group.stream().map(pod -> PodNeeds.of(pod.getMetadata().getName(), pod.getSpec())).toList();
            GangPlan plan = GangPacker.pack(needs, free);
            if (plan instanceof GangPlan.Placed placed) {
                for (int i = 0; i < group.size(); i++) {
                    Pod pod = group.get(i);
                    String node = placed.nodes().get(pod.getMetadata().getName());
                    decisions.add(new Bind(pod, node));
                    PodNeeds taken = needs.get(i);
                    free.replaceAll(state -> state.name().equals(node) ? state.minus(taken.request()) : state);
                }
            } else {
                String reason = ((GangPlan.Unplaceable) plan).reason();
                String message = group.size() > 1 ? "pod group " + groupName(group.get(0)) + " of " + group.size()
                        + " pods cannot be placed together: " + reason : reason;
                group.forEach(pod -> decisions.add(new Unschedulable(pod, message)));
            }
        }
        return decisions;
    }

    /** Pending pods (no node, not finished, not being deleted) grouped by namespace and pod group, oldest group first. */
    private static List<List<Pod>> pendingGroups(List<Pod> pods) {
        Map<String, List<Pod>> groups = new LinkedHashMap<>();
        pods.stream()
                .filter(pod -> pod.getSpec() != null && pod.getSpec().getNodeName() == null && !NodeStates.isFinished(pod)
                        && pod.getMetadata().getDeletionTimestamp() == null)
                .sorted(Comparator.comparing((Pod pod) -> String.valueOf(pod.getMetadata().getCreationTimestamp()))
                        .thenComparing(pod -> pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()))
                .forEach(pod -> groups.computeIfAbsent(pod.getMetadata().getNamespace() + "/" + groupName(pod), key -> new ArrayList<>()).add(pod));
        return new ArrayList<>(groups.values());
    }

    private static String groupName(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String group = labels == null ? null : labels.get(POD_GROUP);
        return group != null ? group : "pod:" + pod.getMetadata().getName();
    }

    private static int minAvailable(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        String value = labels == null ? null : labels.get(MIN_AVAILABLE);
        if (value == null || labels.get(POD_GROUP) == null) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            // The real scheduler ignores an unreadable min-available; so does this one.
            return 1;
        }
    }
}
