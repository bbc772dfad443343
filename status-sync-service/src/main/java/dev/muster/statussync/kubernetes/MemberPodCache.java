package dev.muster.statussync.kubernetes;

import java.util.List;
import java.util.stream.Collectors;

import dev.muster.fleetclient.ReducedItemStore;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;

/**
 * The member pod informer's cache, keeping of each pod only what status sync reads (its identity and labels, what
 * it requests of its node, where it runs, its phase, conditions and containers' readiness): a running pod as
 * fabric8 parses it is about 10 KiB, every object in it with its own map of unknown fields, and a member runs
 * thousands. Watch events still reach the handlers whole; a resync hands them these, which read the same.
 */
public final class MemberPodCache extends ReducedItemStore.OfSameKind<Pod> {

    public MemberPodCache() {
        super(MemberPodCache::reduced);
    }

    /** The pod with only what status sync reads; the parts kept are shared with the pod given, not copied. */
    public static Pod reduced(Pod pod) {
        ObjectMeta metadata = pod.getMetadata();
        ObjectMeta keptMetadata = KeptMetadata.of(metadata);
        keptMetadata.setLabels(metadata.getLabels() == null ? null : metadata.getLabels().entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(label -> shared(label.getKey()), label -> shared(label.getValue()))));
        Pod kept = new Pod();
        kept.setApiVersion(pod.getApiVersion());
        kept.setKind(pod.getKind());
        kept.setMetadata(keptMetadata);
        if (pod.getSpec() != null) {
            PodSpec spec = new PodSpec();
            spec.setNodeName(pod.getSpec().getNodeName());
            spec.setOverhead(pod.getSpec().getOverhead());
            spec.setContainers(requestsOnly(pod.getSpec().getContainers()));
            spec.setInitContainers(requestsOnly(pod.getSpec().getInitContainers()));
            kept.setSpec(spec);
        }
        if (pod.getStatus() != null) {
            PodStatus status = new PodStatus();
            status.setPhase(shared(pod.getStatus().getPhase()));
            status.setConditions(pod.getStatus().getConditions() == null ? null : pod.getStatus().getConditions().stream()
                    .map(condition -> {
                        PodCondition keptCondition = new PodCondition();
                        keptCondition.setType(shared(condition.getType()));
                        keptCondition.setStatus(shared(condition.getStatus()));
                        keptCondition.setReason(shared(condition.getReason()));
                        keptCondition.setMessage(condition.getMessage());
                        return keptCondition;
                    }).toList());
            status.setContainerStatuses(pod.getStatus().getContainerStatuses() == null ? null : pod.getStatus().getContainerStatuses().stream()
                    .map(MemberPodCache::readiness).toList());
            kept.setStatus(status);
        }
        return kept;
    }

    /**
     * One copy of a text many pods repeat (label keys and values, which name the job and replica, condition types,
     * phases): each parsed pod brings its own. Interned strings are collected once no pod holds them.
     */
    private static String shared(String text) {
        return text == null ? null : text.intern();
    }

    private static List<Container> requestsOnly(List<Container> containers) {
        return containers == null ? null : containers.stream().map(container -> {
            Container kept = new Container();
            kept.setName(shared(container.getName()));
            kept.setResources(container.getResources());
            kept.setRestartPolicy(container.getRestartPolicy());
            return kept;
        }).toList();
    }

    private static ContainerStatus readiness(ContainerStatus container) {
        ContainerStatus kept = new ContainerStatus();
        kept.setName(shared(container.getName()));
        kept.setReady(container.getReady());
        kept.setRestartCount(container.getRestartCount());
        ContainerStateWaiting waiting = container.getState() == null ? null : container.getState().getWaiting();
        if (waiting != null) {
            ContainerStateWaiting keptWaiting = new ContainerStateWaiting();
            keptWaiting.setReason(waiting.getReason());
            ContainerState state = new ContainerState();
            state.setWaiting(keptWaiting);
            kept.setState(state);
        }
        return kept;
    }
}
