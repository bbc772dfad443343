package dev.muster.simulator.kubelet;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

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
 */
public final class KubeletController implements AutoCloseable {

    /** How long a pod's containers run before exiting 0; a Go-style duration like {@code 90s} or an ISO-8601 {@code PT90S}. */
    public static final String DURATION = "muster.dev/duration";
    /** The exit code the containers end with when their duration is up; 0 (success) when absent. */
    public static final String EXIT_CODE = "muster.dev/exit-code";
    /** How long the simulated kubelet takes to start a bound pod (pull, create, start); overrides the cluster's default. */
    public static final String START_DELAY = "muster.dev/start-delay";

    private static final System.Logger LOG = System.getLogger(KubeletController.class.getName());

    private final KubernetesClient client;
    private final String cluster;
    private final Duration defaultStartDelay;
    private final ScheduledExecutorService timers;
    private final Set<String> started = ConcurrentHashMap.newKeySet();
    private final SharedIndexInformer<Pod> pods;

    private KubeletController(KubernetesClient client, String cluster, Duration defaultStartDelay) {
        this.client = client;
        this.cluster = cluster;
        this.defaultStartDelay = defaultStartDelay;
        this.timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "kubelet-" + cluster);
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
            }
        });
    }

    /** Starts the kubelets of the cluster the client reaches. */
    public static KubeletController start(KubernetesClient client, String cluster, Duration defaultStartDelay) {
        return new KubeletController(client, cluster, defaultStartDelay);
    }

    private void consider(Pod pod) {
        boolean bound = pod.getSpec() != null && pod.getSpec().getNodeName() != null;
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (!bound || pod.getMetadata().getDeletionTimestamp() != null || !(phase == null || "Pending".equals(phase))
                || !started.add(pod.getMetadata().getUid())) {
            return;
        }
        Duration startDelay = annotation(pod, START_DELAY).orElse(defaultStartDelay);
        timers.schedule(() -> run(pod), startDelay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void run(Pod pod) {
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
        scheduleExit(pod, 0);
    }

    private void scheduleExit(Pod pod, int restarts) {
        annotation(pod, DURATION).ifPresent(duration -> timers.schedule(() -> exit(pod, restarts), duration.toMillis(), TimeUnit.MILLISECONDS));
    }

    private void exit(Pod pod, int restarts) {
        Instant now = Instant.now();
        int exitCode = exitCode(pod);
        String restartPolicy = pod.getSpec().getRestartPolicy() == null ? "Always" : pod.getSpec().getRestartPolicy();
        boolean restart = exitCode != 0 ? !"Never".equals(restartPolicy) : "Always".equals(restartPolicy);
        if (restart) {
            // Crash loop: the container terminated and is started again after the start delay, one more restart counted.
            int count = restarts + 1;
            if (update(pod, status -> status.setContainerStatuses(restarted(pod, count, exitCode, now)))) {
                LOG.log(System.Logger.Level.INFO, cluster + ": " + name(pod) + " exited " + exitCode + "; restart " + count);
                Duration delay = annotation(pod, START_DELAY).orElse(defaultStartDelay);
                timers.schedule(() -> scheduleExit(pod, count), delay.toMillis(), TimeUnit.MILLISECONDS);
            }
            return;
        }
        update(pod, status -> {
            status.setPhase(exitCode == 0 ? "Succeeded" : "Failed");
            setCondition(status, "Ready", "False", now);
            setCondition(status, "ContainersReady", "False", now);
            status.setContainerStatuses(containerStatuses(pod, false, exitCode, now));
        });
    }

    private static List<ContainerStatus> restarted(Pod pod, int restarts, int exitCode, Instant now) {
        List<ContainerStatus> statuses = containerStatuses(pod, true, null, now);
        statuses.forEach(status -> {
            status.setRestartCount(restarts);
            status.setLastState(new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated()
                    .withExitCode(exitCode).withReason("Error").withFinishedAt(now.toString()).endTerminated().build());
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

    /** Writes the pod's status; false when the pod is gone meanwhile. */
    private boolean update(Pod pod, java.util.function.Consumer<PodStatus> change) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).editStatus(current -> {
                PodStatus status = current.getStatus() == null ? new PodStatus() : current.getStatus();
                change.accept(status);
                current.setStatus(status);
                return current;
            });
            return true;
        } catch (KubernetesClientException e) {
            // Deleted before its kubelet got to it: nothing to run.
            LOG.log(System.Logger.Level.DEBUG, cluster + ": " + name(pod) + " is gone: " + e.getMessage());
            return false;
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

    private static void setCondition(PodStatus status, String type, String value, Instant now) {
        List<PodCondition> conditions = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        conditions.removeIf(condition -> type.equals(condition.getType()));
        conditions.add(new PodConditionBuilder().withType(type).withStatus(value).withLastTransitionTime(now.toString()).build());
        status.setConditions(conditions);
    }

    private static java.util.Optional<Duration> annotation(Pod pod, String name) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String text = annotations == null ? null : annotations.get(name);
        if (text == null || text.isBlank()) {
            return java.util.Optional.empty();
        }
        java.util.Optional<Duration> duration = parseDuration(text.trim());
        if (duration.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, name(pod) + ": annotation " + name + " is not a duration: \"" + text + "\"; ignored");
        }
        return duration;
    }

    private static final java.util.regex.Pattern GO_DURATION = java.util.regex.Pattern.compile("(\\d+)(ms|s|m|h)");

    /** A Go-style duration as Kubernetes users write them ({@code 500ms}, {@code 90s}, {@code 1h30m}), or ISO-8601 ({@code PT90S}). */
    static java.util.Optional<Duration> parseDuration(String text) {
        if (text.startsWith("P")) {
            try {
                return java.util.Optional.of(Duration.parse(text));
            } catch (DateTimeParseException e) {
                return java.util.Optional.empty();
            }
        }
        java.util.regex.Matcher part = GO_DURATION.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (part.find() && part.start() == end) {
            long amount = Long.parseLong(part.group(1));
            total = total.plus(switch (part.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            });
            end = part.end();
        }
        return end == text.length() && end > 0 ? java.util.Optional.of(total) : java.util.Optional.empty();
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
