package dev.muster.model.member;

import java.util.List;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * One pod on one member, as {@code kubectl muster get pod -M} prints it: {@code NAME CLUSTER READY STATUS RESTARTS AGE}.
 *
 * @param status  as kubectl shows it: a container's waiting reason (e.g. {@code CrashLoopBackOff}) or the pod's phase
 * @param created the pod's creation time (RFC 3339), for the age
 * @param node    the node it is bound to; null while it is not ({@code -o wide})
 */
public record MemberPodRow(String name, String namespace, String cluster, String ready, String status, int restarts, String created, String node) {

    public static MemberPodRow of(String cluster, Pod pod) {
        List<ContainerStatus> containers = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
        int total = pod.getSpec() == null || pod.getSpec().getContainers() == null ? containers.size() : pod.getSpec().getContainers().size();
        long ready = containers.stream().filter(container -> Boolean.TRUE.equals(container.getReady())).count();
        int restarts = containers.stream().mapToInt(container -> container.getRestartCount() == null ? 0 : container.getRestartCount()).sum();
        String status = containers.stream().filter(container -> container.getState() != null && container.getState().getWaiting() != null
                        && container.getState().getWaiting().getReason() != null)
                .map(container -> container.getState().getWaiting().getReason()).findFirst()
                .orElse(pod.getMetadata().getDeletionTimestamp() != null ? "Terminating"
                        : pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase());
        return new MemberPodRow(pod.getMetadata().getName(), pod.getMetadata().getNamespace(), cluster, ready + "/" + total, status, restarts,
                pod.getMetadata().getCreationTimestamp(), pod.getSpec() == null ? null : pod.getSpec().getNodeName());
    }

    /** The row of a member that does not answer: its last known status is not its status now. */
    public MemberPodRow unknown() {
        return new MemberPodRow(name, namespace, cluster, ready, MemberJobRow.UNKNOWN, restarts, created, node);
    }
}
