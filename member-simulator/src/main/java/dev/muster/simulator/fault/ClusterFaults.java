package dev.muster.simulator.fault;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import dev.muster.simulator.cluster.ListFaults;
import dev.muster.simulator.kubelet.KubeletController;
import dev.muster.simulator.scheduling.SchedulerController;
import dev.muster.simulator.time.SimulatedTime;
import dev.muster.simulator.training.TrainingOperator;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * The faults a simulated cluster can suffer, switched on and off at run time, each observable the way it is on
 * a real cluster: a crashed pod's container terminates with its exit code; a node whose kubelet stops reporting
 * turns {@code Ready=Unknown}, gets the {@code node.kubernetes.io/unreachable} taints, its pods turn not ready and
 * after the default five minutes (at the simulation's speed) are evicted; an unreachable API refuses
 * connections; a slow one answers late; a stopped scheduler leaves new pods Pending and reservations unconfirmed; a
 * scheduler that confirms no reservations still binds pods; an API under load fails lists of a resource.
 */
public final class ClusterFaults implements AutoCloseable {

    /** The taint the node lifecycle controller puts on a node whose kubelet stopped reporting. */
    public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
    /** How long pods stay on an unreachable node before eviction, as the DefaultTolerationSeconds admission sets it. */
    public static final Duration EVICTION_DELAY = Duration.ofMinutes(5);

    private static final System.Logger LOG = System.getLogger(ClusterFaults.class.getName());

    private final String cluster;
    private final KubernetesClient client;
    private final KubeletController kubelets;
    private final SchedulerController scheduler;
    private final TrainingOperator operator;
    private final ApiProxy proxy;
    private final ListFaults lists;
    private final SimulatedTime time;
    private final ScheduledExecutorService evictions;
    private final Map<String, ScheduledFuture<?>> downNodes = new ConcurrentHashMap<>();

    public ClusterFaults(String cluster, KubernetesClient client, SchedulerController scheduler, KubeletController kubelets, ApiProxy proxy,
                         ListFaults lists, SimulatedTime time, TrainingOperator operator) {
        this.operator = operator;
        this.lists = lists;
        this.cluster = cluster;
        this.client = client;
        this.scheduler = scheduler;
        this.kubelets = kubelets;
        this.proxy = proxy;
        this.time = time;
        this.evictions = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "node-lifecycle-" + cluster);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Makes one change to the member, as a fault or its healing, and logs it. */
    private void change(Runnable change, String what) {
        change.run();
        LOG.log(System.Logger.Level.INFO, cluster + ": " + what);
    }

    /** The faults in force now. */
    public record Active(boolean unreachable, long latencyMillis, Set<String> notReadyNodes, boolean schedulerStopped,
                         boolean reservationsUnconfirmed, Map<String, Integer> failingLists) {
    }

    public Active active() {
        return new Active(proxy.isUnreachable(), proxy.latency().toMillis(), new TreeSet<>(downNodes.keySet()), scheduler.isPaused(),
                scheduler.reservationsPaused(), lists.active());
    }

    /** The member's scheduler confirms no reservation any more, but still binds pods: Muster's reservations time out. */
    public void stopReservations() {
        change(scheduler::pauseReservations, "fault: reservations no longer confirmed (pods still bound)");
    }

    /** The member's scheduler confirms reservations again. */
    public void startReservations() {
        change(scheduler::resumeReservations, "fault healed: reservations confirmed again");
    }

    /** The next {@code count} lists of the resource fail with 503, as from an API server under load. */
    public void failLists(String resource, int count) {
        lists.failNext(resource, count);
        LOG.log(System.Logger.Level.INFO, cluster + ": fault: the next " + count + " lists of " + resource + " fail");
    }

    /**
     * The member's training operator stops: no pod is made for a new job, and the pods of a deleted job stay until someone
     * deletes them (its garbage collection is the operator's here).
     */
    public void stopOperator() {
        change(operator::pause, "fault: training operator stopped");
    }

    /** The member's training operator runs again. */
    public void startOperator() {
        change(operator::resume, "fault healed: training operator running");
    }

    /** The member's scheduler stops: new pods stay Pending and new reservations unconfirmed, with no reason given. */
    public void stopScheduler() {
        change(scheduler::pause, "fault: scheduler stopped");
    }

    /** The member's scheduler runs again. */
    public void startScheduler() {
        change(scheduler::resume, "fault healed: scheduler running");
    }

    /**
     * Kills a running pod's containers with the exit code.
     *
     * @throws NoSuchElementException when the cluster has no such running pod
     */
    public void failPod(String namespace, String name, int exitCode) {
        if (!kubelets.exit(namespace, name, exitCode)) {
            throw new NoSuchElementException("cluster " + cluster + " has no running pod " + namespace + "/" + name);
        }
        LOG.log(System.Logger.Level.INFO, cluster + ": fault: pod " + namespace + "/" + name + " killed with exit code " + exitCode);
    }

    /**
     * The node's kubelet stops reporting.
     *
     * @throws NoSuchElementException when the cluster has no such node
     */
    public void nodeNotReady(String node) {
        requireNode(node);
        if (downNodes.containsKey(node)) {
            return;
        }
        kubelets.nodeDown(node);
        Instant now = Instant.now();
        client.nodes().withName(node).edit(current -> {
            List<Taint> taints = new ArrayList<>(current.getSpec().getTaints() == null ? List.of() : current.getSpec().getTaints());
            taints.removeIf(taint -> UNREACHABLE_TAINT.equals(taint.getKey()));
            taints.add(new TaintBuilder().withKey(UNREACHABLE_TAINT).withEffect("NoSchedule").withTimeAdded(now.toString()).build());
            taints.add(new TaintBuilder().withKey(UNREACHABLE_TAINT).withEffect("NoExecute").withTimeAdded(now.toString()).build());
            current.getSpec().setTaints(taints);
            return current;
        });
        client.nodes().withName(node).editStatus(current -> withReady(current, "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", now));
        // Down before its pods are marked: were marking one to fail, nodeReady would still find the node to bring back.
        downNodes.put(node, evictions.schedule(() -> evict(node), time.real(EVICTION_DELAY).toMillis(), TimeUnit.MILLISECONDS));
        podsOn(node).forEach(pod -> setPodReady(pod, "False", now));
        LOG.log(System.Logger.Level.INFO, cluster + ": fault: node " + node + " NotReady");
    }

    /**
     * The node's kubelet reports again.
     *
     * @throws NoSuchElementException when the cluster has no such node
     */
    public void nodeReady(String node) {
        requireNode(node);
        ScheduledFuture<?> eviction = downNodes.remove(node);
        if (eviction == null) {
            return;
        }
        eviction.cancel(false);
        Instant now = Instant.now();
        client.nodes().withName(node).edit(current -> {
            if (current.getSpec().getTaints() != null) {
                List<Taint> taints = new ArrayList<>(current.getSpec().getTaints());
                taints.removeIf(taint -> UNREACHABLE_TAINT.equals(taint.getKey()));
                current.getSpec().setTaints(taints);
            }
            return current;
        });
        client.nodes().withName(node).editStatus(current -> withReady(current, "True", "KubeletReady", "kubelet is posting ready status", now));
        podsOn(node).stream().filter(pod -> pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()))
                .forEach(pod -> setPodReady(pod, "True", now));
        kubelets.nodeUp(node);
        LOG.log(System.Logger.Level.INFO, cluster + ": fault healed: node " + node + " Ready");
    }

    /**
     * The next request that starts with these bytes reaches the API server, and the cluster becomes unreachable as the
     * server answers it: the write is made, its client is never told. {@link #reachable()} ends the outage; null disarms
     * it.
     */
    public void unreachableAtTheAnswerTo(String requestStart) {
        proxy.cutAtTheAnswerTo(requestStart);
    }

    /** The API refuses connections; open ones are cut. */
    public void unreachable() {
        proxy.unreachable();
    }

    /** The API accepts connections again, with no added latency; faults of nodes, scheduler and lists stay. */
    public void reachable() {
        try {
            proxy.heal();
        } catch (IOException e) {
            throw new UncheckedIOException("cluster " + cluster + ": could not listen on its API port again", e);
        }
    }

    /** Every API request waits this long first. */
    public void slow(Duration latency) {
        proxy.slow(latency);
    }

    /** Ends every fault: the API is reachable and fast, every node Ready, the scheduler running. */
    public void heal() {
        if (scheduler.isPaused()) {
            startScheduler();
        }
        if (scheduler.reservationsPaused()) {
            startReservations();
        }
        lists.heal();
        reachable();
        new ArrayList<>(downNodes.keySet()).forEach(this::nodeReady);
    }

    /**
     * Taint-based eviction: pods that do not tolerate the unreachable taint are deleted, as the node lifecycle controller
     * does; with no grace period, as for a node out of service, since the node's kubelet will never confirm their end.
     */
    private void evict(String node) {
        for (Pod pod : podsOn(node)) {
            if (!toleratesUnreachable(pod)) {
                client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
                LOG.log(System.Logger.Level.INFO, cluster + ": evicted " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                        + " from unreachable node " + node);
            }
        }
    }

    private static boolean toleratesUnreachable(Pod pod) {
        List<Toleration> tolerations = pod.getSpec().getTolerations();
        return tolerations != null && tolerations.stream().anyMatch(toleration -> toleration.getTolerationSeconds() == null
                && ("Exists".equals(toleration.getOperator()) && (toleration.getKey() == null || UNREACHABLE_TAINT.equals(toleration.getKey())))
                && (toleration.getEffect() == null || "NoExecute".equals(toleration.getEffect())));
    }

    private List<Pod> podsOn(String node) {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(pod -> node.equals(pod.getSpec().getNodeName())).toList();
    }

    /** Sets the pod's readiness; a pod deleted since it was listed (its job ended meanwhile) has none left to set. */
    private void setPodReady(Pod pod, String ready, Instant now) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(current -> {
                PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
                KubeletController.setCondition(status, "Ready", ready, now);
                current.setStatus(status);
                return current;
            });
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private static Node withReady(Node node, String status, String reason, String message, Instant now) {
        List<NodeCondition> conditions = new ArrayList<>(node.getStatus().getConditions());
        conditions.removeIf(condition -> "Ready".equals(condition.getType()));
        conditions.add(new NodeConditionBuilder().withType("Ready").withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(now.toString()).withLastTransitionTime(now.toString()).build());
        node.getStatus().setConditions(conditions);
        return node;
    }

    private void requireNode(String node) {
        if (client.nodes().withName(node).get() == null) {
            throw new NoSuchElementException("cluster " + cluster + " has no node " + node);
        }
    }

    @Override
    public void close() {
        evictions.shutdownNow();
        proxy.close();
    }
}
