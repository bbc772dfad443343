package dev.muster.simulator.scheduling;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.muster.simulator.scheduling.GangScheduler.Bind;
import dev.muster.simulator.scheduling.GangScheduler.Decision;
import dev.muster.simulator.scheduling.GangScheduler.Unschedulable;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Runs {@link GangScheduler} against one simulated cluster's API server: whenever a pod or node changes, one
 * scheduling pass over everything pending, then binds ({@code spec.nodeName} and {@code PodScheduled=True}) or
 * reports {@code PodScheduled=False, reason Unschedulable} with the message, as kube-scheduler does. Passes run
 * one at a time on the controller's own thread; a change during a pass asks for one more.
 */
public final class SchedulerController implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SchedulerController.class.getName());

    private final KubernetesClient client;
    private final String cluster;
    private final ExecutorService passes;
    private final AtomicBoolean requested = new AtomicBoolean();
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;

    private SchedulerController(KubernetesClient client, String cluster) {
        this.client = client;
        this.cluster = cluster;
        this.passes = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "scheduler-" + cluster);
            thread.setDaemon(true);
            return thread;
        });
        this.pods = client.pods().inAnyNamespace().inform(trigger());
        this.nodes = client.nodes().inform(trigger());
    }

    /** Starts scheduling the cluster the client reaches; {@code cluster} names it in logs and threads. */
    public static SchedulerController start(KubernetesClient client, String cluster) {
        SchedulerController controller = new SchedulerController(client, cluster);
        controller.request();
        return controller;
    }

    private <T> ResourceEventHandler<T> trigger() {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                request();
            }

            @Override
            public void onUpdate(T old, T object) {
                request();
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                request();
            }
        };
    }

    private void request() {
        if (requested.compareAndSet(false, true) && !passes.isShutdown()) {
            passes.execute(this::pass);
        }
    }

    private void pass() {
        requested.set(false);
        try {
            List<Decision> decisions = GangScheduler.schedule(nodes.getStore().list(), pods.getStore().list());
            decisions.forEach(this::apply);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "scheduling pass on " + cluster + " failed; retried on the next change", e);
        }
    }

    private void apply(Decision decision) {
        Pod pod = decision.pod();
        var resource = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
        if (decision instanceof Bind bind) {
            resource.edit(current -> {
                current.getSpec().setNodeName(bind.node());
                return current;
            });
            resource.editStatus(current -> withScheduled(current, "True", null, null));
            LOG.log(System.Logger.Level.INFO, cluster + ": bound " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                    + " to " + bind.node());
        } else if (decision instanceof Unschedulable unschedulable && !alreadySays(pod, unschedulable.message())) {
            resource.editStatus(current -> withScheduled(current, "False", "Unschedulable", unschedulable.message()));
        }
    }

    private static boolean alreadySays(Pod pod, String message) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(condition -> "PodScheduled".equals(condition.getType()) && "False".equals(condition.getStatus())
                        && Objects.equals(message, condition.getMessage()));
    }

    private static Pod withScheduled(Pod pod, String status, String reason, String message) {
        PodStatus podStatus = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        if (podStatus.getPhase() == null) {
            podStatus.setPhase("Pending");
        }
        List<PodCondition> conditions = new java.util.ArrayList<>(podStatus.getConditions() == null ? List.of() : podStatus.getConditions());
        conditions.removeIf(condition -> "PodScheduled".equals(condition.getType()));
        conditions.add(new PodConditionBuilder().withType("PodScheduled").withStatus(status).withReason(reason).withMessage(message)
                .withLastTransitionTime(java.time.Instant.now().toString()).build());
        podStatus.setConditions(conditions);
        pod.setStatus(podStatus);
        return pod;
    }

    @Override
    public void close() {
        passes.shutdownNow();
        pods.close();
        nodes.close();
    }
}
