package dev.muster.model.inventory;

import java.util.Objects;

import dev.muster.model.resource.PodRequests;
import dev.muster.model.resource.ResourceList;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * What placement needs to know of one member pod: where it is bound and what it takes there.
 *
 * @param node     the node it is bound to, or null while Pending
 * @param request  what it takes from its node, one {@code pods} slot included
 * @param finished Succeeded or Failed: it holds nothing any more
 */
public record PodSnapshot(String namespace, String name, String node, ResourceList request, boolean finished) {

    public PodSnapshot {
        Objects.requireNonNull(name, "name");
        request = request == null ? ResourceList.empty() : request;
    }

    public static PodSnapshot of(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return new PodSnapshot(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                pod.getSpec() == null ? null : pod.getSpec().getNodeName(),
                pod.getSpec() == null ? ResourceList.empty() : PodRequests.onNode(pod.getSpec()),
                "Succeeded".equals(phase) || "Failed".equals(phase));
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }
}
