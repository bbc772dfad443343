package dev.muster.statussync.core.mirror;

import java.util.List;
import java.util.Optional;

import dev.muster.model.job.GangPod;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

/**
 * One pod of a member copy, as the multi-cluster pod view shows it and health is judged by.
 *
 * @param job      the name of the job it belongs to (the training operator's label)
 * @param ready    its ready containers over all, e.g. {@code 1/1}
 * @param problem  why it cannot run, when it cannot: unschedulable, or a container crash-looping
 */
public record MemberPod(String cluster, String namespace, String name, String job, String phase, String ready, int restarts,
                        String node, Optional<Health.Problem> problem) {

    /** The pod, when it belongs to a training job; empty otherwise. */
    public static Optional<MemberPod> of(String cluster, Pod pod) {
        String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(GangPod.JOB_NAME_LABEL);
        if (job == null) {
            return Optional.empty();
        }
        List<ContainerStatus> containers = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
        int total = pod.getSpec() == null || pod.getSpec().getContainers() == null ? containers.size() : pod.getSpec().getContainers().size();
        long ready = containers.stream().filter(status -> Boolean.TRUE.equals(status.getReady())).count();
        int restarts = containers.stream().mapToInt(status -> status.getRestartCount() == null ? 0 : status.getRestartCount()).sum();
        String phase = pod.getStatus() == null || pod.getStatus().getPhase() == null ? "Pending" : pod.getStatus().getPhase();
        return Optional.of(new MemberPod(cluster, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), job, phase,
                ready + "/" + total, restarts, pod.getSpec() == null ? null : pod.getSpec().getNodeName(), problem(pod, phase, containers)));
    }

    private static Optional<Health.Problem> problem(Pod pod, String phase, List<ContainerStatus> containers) {
        if ("Pending".equals(phase) && pod.getStatus() != null && pod.getStatus().getConditions() != null) {
            for (PodCondition condition : pod.getStatus().getConditions()) {
                if ("PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
                        && "Unschedulable".equals(condition.getReason())) {
                    return Optional.of(new Health.Problem("PodUnschedulable",
                            "pod " + pod.getMetadata().getName() + " is unschedulable: " + condition.getMessage()));
                }
            }
        }
        for (ContainerStatus container : containers) {
            if (container.getState() != null && container.getState().getWaiting() != null
                    && "CrashLoopBackOff".equals(container.getState().getWaiting().getReason())) {
                return Optional.of(new Health.Problem("PodCrashLooping", "pod " + pod.getMetadata().getName() + " is crash-looping (container "
                        + container.getName() + ", " + container.getRestartCount() + " restarts)"));
            }
        }
        return Optional.empty();
    }

    /** {@code namespace/name}. */
    public String key() {
        return namespace + "/" + name;
    }
}
