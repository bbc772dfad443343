package dev.muster.simulator.kubelet;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.muster.model.time.GoDurations;
import dev.muster.simulator.cluster.StatusWrites;
import dev.muster.simulator.time.SimulatedTime;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The simulated kubelets of one cluster: a pod bound to a node starts running after a start delay, and
 * with a {@value #DURATION} annotation (e.g. {@code 30s}) its containers then exit, with 0 or the
 * {@value #EXIT_CODE} annotation's code; without a duration it runs until deleted. A pod that exits 0
 * succeeds; one that exits otherwise fails under {@code restartPolicy: Never}, and under {@code OnFailure} or
 * {@code Always} its containers restart after the start delay and count the restart, as a crash loop does.
 * Status is written as a kubelet writes it: phase, start time, the Ready condition, and each container's state.
 * A deleted pod stops after its {@value #STOP_DELAY} annotation (at most its grace period) and is then removed.
 * A kubelet whose node is down reports nothing and removes nothing until the node is back. Waits run at the
 * simulation's speed.
 */
public final class KubeletController implements AutoCloseable {

    /** How long a pod's containers run before exiting 0; a Go-style duration like {@code 90s} or an ISO-8601 {@code PT90S}. */
    public static final String DURATION = "muster.dev/duration";
    /** The exit code the containers end with when their duration is up; 0 (success) when absent. */
    public static final String EXIT_CODE = "muster.dev/exit-code";
    /** How long the simulated kubelet takes to start a bound pod (pull, create, start); overrides the cluster's default. */
    public static final String START_DELAY = "muster.dev/start-delay";
    /**
     * How long the pod's program takes to exit once asked to stop (SIGTERM) when the pod is deleted; 0 when absent. The
     * pod is killed at its grace period if it takes longer.
     */
    public static final String STOP_DELAY = "muster.dev/stop-delay";

    private static final System.Logger LOG = System.getLogger(KubeletController.class.getName());
    /** The member's kubelets' writes at once. */
    private static final int KUBELET_THREADS = 4;

    private final KubernetesClient client;
    private final String cluster;
    private final Duration defaultStartDelay;
    private final SimulatedTime time;
    private final ScheduledExecutorService timers;
    private final Set<String> started = ConcurrentHashMap.newKeySet();
    /** The pods being stopped after their deletion, by UID: each is removed once. */
    private final Set<String> stopping = ConcurrentHashMap.newKeySet();
    /** Each running pod's current run; a timer from an earlier run (before a crash or restart) finds it changed. */
    private final Map<String, Integer> runs = new ConcurrentHashMap<>();
    private final Set<String> downNodes = ConcurrentHashMap.newKeySet();
    private final SharedIndexInformer<Pod> pods;

    private KubeletController(KubernetesClient client, String cluster, Duration defaultStartDelay, SimulatedTime time) {
        this.client = client;
        this.cluster = cluster;
        this.defaultStartDelay = defaultStartDelay;
        this.time = time;
        // A member's kubelets are one per node and write independently: several threads, so that one pod's status
        // write, waiting for the API server, does not hold up every other pod's start on the member.
        AtomicInteger threads = new AtomicInteger();
        this.timers = Executors.newScheduledThreadPool(KUBELET_THREADS, runnable -> {
            Thread thread = new Thread(runnable, "kubelet-" + cluster + "-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                consider(pod);
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                consider(pod);
            }

            @Override
            public void onDelete(Pod pod, boolean finalStateUnknown) {
                started.remove(pod.getMetadata().getUid());
                runs.remove(pod.getMetadata().getUid());
                stopping.remove(pod.getMetadata().getUid());
            }
        });
    }

    /** Starts the kubelets of the cluster the client reaches. */
    public static KubeletController start(KubernetesClient client, String cluster, Duration defaultStartDelay, SimulatedTime time) {
        return new KubeletController(client, cluster, defaultStartDelay, time);
    }

    /**
     * Ends the pod's containers now with this exit code: 0 as a finished program does, any other as an
     * out-of-memory kill or a crash would. What follows is what the pod's {@code restartPolicy} says.
     *
     * @return false when the cluster has no such running pod
     */
    public boolean exit(String namespace, String name, int exitCode) {
        Pod pod = client.pods().inNamespace(namespace).withName(name).get();
        if (pod == null || pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())) {
            return false;
        }
        runs.merge(pod.getMetadata().getUid(), 1, Integer::sum);
        timers.execute(() -> terminate(pod, exitCode, exitCode == 0 ? "Completed" : "Error"));
        return true;
    }

    /** The node's kubelet stops reporting: its pods' status stays as it was until {@link #nodeUp}. */
    public void nodeDown(String node) {
        downNodes.add(node);
    }

    /** The node's kubelet reports again: pods that were due to start are started. */
    public void nodeUp(String node) {
        if (downNodes.remove(node)) {
            pods.getStore().list().stream().filter(pod -> node.equals(pod.getSpec().getNodeName())).forEach(pod -> {
                started.remove(pod.getMetadata().getUid());
                stopping.remove(pod.getMetadata().getUid());
                consider(pod);
            });
        }
    }

    private void consider(Pod pod) {
        boolean bound = pod.getSpec() != null && pod.getSpec().getNodeName() != null;
        if (bound && pod.getMetadata().getDeletionTimestamp() != null) {
            if (!downNodes.contains(pod.getSpec().getNodeName()) && stopping.add(pod.getMetadata().getUid())) {
                after(stopTime(pod), () -> remove(pod));
            }
            return;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (!bound || pod.getMetadata().getDeletionTimestamp() != null || !(phase == null || "Pending".equals(phase))
                || downNodes.contains(pod.getSpec().getNodeName()) || !started.add(pod.getMetadata().getUid())) {
            return;
        }
        after(startDelay(pod), () -> run(pod));
    }

    /** How long a deleted pod takes to stop: its program's stop delay, at most its grace period. */
    private static Duration stopTime(Pod pod) {
        Duration stop = annotation(pod, STOP_DELAY).orElse(Duration.ZERO);
        Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
        return grace != null && stop.compareTo(Duration.ofSeconds(grace)) > 0 ? Duration.ofSeconds(grace) : stop;
    }

    /** The deleted pod's containers have stopped: the kubelet removes it, as a real one confirms with a grace period of 0. */
    private void remove(Pod pod) {
        if (downNodes.contains(pod.getSpec().getNodeName())) {
            // A kubelet that does not report confirms nothing: the pod stays terminating until its node is back.
            stopping.remove(pod.getMetadata().getUid());
            return;
        }
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
            LOG.log(System.Logger.Level.DEBUG, cluster + ": " + name(pod) + " stopped and removed");
        } catch (KubernetesClientException e) {
            stopping.remove(pod.getMetadata().getUid());
            LOG.log(System.Logger.Level.WARNING, cluster + ": could not remove stopped pod " + name(pod) + ": " + e.getMessage());
        }
    }

    private void run(Pod pod) {
        if (downNodes.contains(pod.getSpec().getNodeName())) {
            started.remove(pod.getMetadata().getUid());
            return;
        }
        Instant now = Instant.now();
        if (!update(pod, status -> {
            status.setPhase("Running");
            status.setStartTime(now.toString());
            setCondition(status, "Ready", "True", now);
            setCondition(status, "ContainersReady", "True", now);
            status.setContainerStatuses(containerStatuses(pod, true, null, now));
        })) {
            return;
        }
        LOG.log(System.Logger.Level.DEBUG, cluster + ": " + name(pod) + " running on " + pod.getSpec().getNodeName());
        scheduleExit(pod);
    }

    private void scheduleExit(Pod pod) {
        int run = runs.merge(pod.getMetadata().getUid(), 1, Integer::sum);
        annotation(pod, DURATION).ifPresent(duration -> after(duration, () -> {
            if (Integer.valueOf(run).equals(runs.get(pod.getMetadata().getUid())) && !downNodes.contains(pod.getSpec().getNodeName())) {
                terminate(pod, exitCode(pod), null);
            }
        }));
    }

    /** The containers ended with the code; restart them or end the pod, as the restart policy says. */
    private void terminate(Pod pod, int exitCode, String reason) {
        Instant now = Instant.now();
        String restartPolicy = pod.getSpec().getRestartPolicy() == null ? "Always" : pod.getSpec().getRestartPolicy();
        boolean restart = exitCode != 0 ? !"Never".equals(restartPolicy) : "Always".equals(restartPolicy);
        String why = reason != null ? reason : exitCode == 0 ? "Completed" : "Error";
        if (restart) {
            // Crash loop: the container terminated and is started again after the start delay, one more restart counted.
            int restarts = restartCount(pod) + 1;
            if (update(pod, status -> status.setContainerStatuses(restarted(pod, restarts, exitCode, why, now)))) {
                LOG.log(System.Logger.Level.INFO, cluster + ": " + name(pod) + " exited " + exitCode + "; restart " + restarts);
                after(startDelay(pod), () -> scheduleExit(pod));
            }
            return;
        }
        runs.remove(pod.getMetadata().getUid());
        update(pod, status -> {
            status.setPhase(exitCode == 0 ? "Succeeded" : "Failed");
            setCondition(status, "Ready", "False", now);
            setCondition(status, "ContainersReady", "False", now);
            status.setContainerStatuses(containerStatuses(pod, false, exitCode, now));
            status.getContainerStatuses().forEach(container -> container.getState().getTerminated().setReason(why));
        });
        LOG.log(System.Logger.Level.INFO, cluster + ": " + name(pod) + " exited " + exitCode + "; pod " + (exitCode == 0 ? "Succeeded" : "Failed"));
    }

    private int restartCount(Pod pod) {
        Pod current = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
        if (current == null || current.getStatus() == null || current.getStatus().getContainerStatuses() == null) {
            return 0;
        }
        return current.getStatus().getContainerStatuses().stream().mapToInt(status -> status.getRestartCount() == null ? 0 : status.getRestartCount())
                .max().orElse(0);
    }

    private void after(Duration simulated, Runnable action) {
        if (!timers.isShutdown()) {
            timers.schedule(action, time.real(simulated).toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private Duration startDelay(Pod pod) {
        return annotation(pod, START_DELAY).orElse(defaultStartDelay);
    }

    private static List<ContainerStatus> restarted(Pod pod, int restarts, int exitCode, String reason, Instant now) {
        List<ContainerStatus> statuses = containerStatuses(pod, true, null, now);
        statuses.forEach(status -> {
            status.setRestartCount(restarts);
            status.setLastState(new ContainerStateBuilder().withNewTerminated()
                    .withExitCode(exitCode).withReason(reason).withFinishedAt(now.toString()).endTerminated().build());
        });
        return statuses;
    }

    private static int exitCode(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(EXIT_CODE);
        if (text == null) {
            return 0;
        }
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            LOG.log(System.Logger.Level.WARNING, name(pod) + ": annotation " + EXIT_CODE + " is not an integer: \"" + text + "\"; exiting 1");
            return 1;
        }
    }

    /** Writes the pod's status, again if another writer got in between; false when the pod is gone meanwhile. */
    private boolean update(Pod pod, Consumer<PodStatus> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                StatusWrites.write(client.pods().inNamespace(pod.getMetadata().getNamespace()), pod,
                        current -> {
                            PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
                            change.accept(status);
                            current.setStatus(status);
                            return current;
                        }, client.getKubernetesSerialization());
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    // Deleted before its kubelet got to it: nothing to run.
                    LOG.log(System.Logger.Level.DEBUG, cluster + ": " + name(pod) + " is gone");
                    return false;
                }
                if (attempt == 3) {
                    LOG.log(System.Logger.Level.WARNING, cluster + ": could not write the status of " + name(pod) + ": " + e.getMessage());
                    return false;
                }
            }
        }
    }

    private static List<ContainerStatus> containerStatuses(Pod pod, boolean running, Integer exitCode, Instant now) {
        List<ContainerStatus> statuses = new ArrayList<>();
        pod.getSpec().getContainers().forEach(container -> {
            ContainerStatusBuilder builder = new ContainerStatusBuilder().withName(container.getName()).withImage(container.getImage())
                    .withReady(running).withStarted(running).withRestartCount(0);
            if (running) {
                builder.withNewState().withNewRunning().withStartedAt(now.toString()).endRunning().endState();
            } else {
                builder.withNewState().withNewTerminated().withExitCode(exitCode).withReason(exitCode == 0 ? "Completed" : "Error")
                        .withFinishedAt(now.toString()).endTerminated().endState();
            }
            statuses.add(builder.build());
        });
        return statuses;
    }

    /** Sets one pod condition, keeping the others. */
    public static void setCondition(PodStatus status, String type, String value, Instant now) {
        List<PodCondition> conditions = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        conditions.removeIf(condition -> type.equals(condition.getType()));
        conditions.add(new PodConditionBuilder().withType(type).withStatus(value).withLastTransitionTime(now.toString()).build());
        status.setConditions(conditions);
    }

    private static Optional<Duration> annotation(Pod pod, String name) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(name);
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        Optional<Duration> duration = GoDurations.parse(text);
        if (duration.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, name(pod) + ": annotation " + name + " is not a duration: \"" + text + "\"; ignored");
        }
        return duration;
    }

    private static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    @Override
    public void close() {
        timers.shutdownNow();
        pods.close();
    }
}
