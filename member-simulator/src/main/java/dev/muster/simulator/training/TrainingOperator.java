package dev.muster.simulator.training;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.muster.model.job.GangPod;
import dev.muster.model.job.JobCondition;
import dev.muster.model.job.PyTorchJob;
import dev.muster.model.job.PyTorchJobStatus;
import dev.muster.model.job.ReplicaSpec;
import dev.muster.model.job.ReplicaStatus;
import dev.muster.model.job.ReplicaType;
import dev.muster.simulator.cluster.StatusWrites;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The simulated Kubeflow training operator of one cluster: creates the pods of each PyTorchJob
 * ({@code <job>-master-0}, {@code <job>-worker-<i>}) with the labels and environment the real operator sets and
 * the job's gang labels, and keeps the job's conditions ({@code Created}, {@code Running}, {@code Succeeded},
 * {@code Failed}) and replica statuses in step with its pods.
 */
public final class TrainingOperator implements AutoCloseable {

    public static final String JOB_NAME = GangPod.JOB_NAME_LABEL;
    public static final String REPLICA_TYPE = "training.kubeflow.org/replica-type";
    public static final String REPLICA_INDEX = "training.kubeflow.org/replica-index";
    /** The older label the seed's Worker reads its index from. */
    public static final String PYTORCH_REPLICA_INDEX = "pytorch-replica-index";
    private static final String GANG_LABEL_PREFIX = "pod-group.scheduling.sigs.k8s.io/";
    private static final int MASTER_PORT = 23456;

    private static final System.Logger LOG = System.getLogger(TrainingOperator.class.getName());
    /** Jobs reconciled at once. */
    private static final int WORKERS = 4;

    private final KubernetesClient client;
    private final String cluster;
    private final ExecutorService work;
    private final SharedIndexInformer<PyTorchJob> jobs;
    private final SharedIndexInformer<Pod> pods;
    /**
     * Jobs queued or being reconciled, as {@code namespace/name}: true when the job or one of its pods changed since its
     * reconciling began, so that it is reconciled again, by the same worker (a job is never reconciled twice at once).
     */
    private final Map<String, Boolean> active = new ConcurrentHashMap<>();
    /** While the operator is stopped, the jobs whose changes wait for it to run again. */
    private final java.util.Set<String> heldBack = ConcurrentHashMap.newKeySet();
    private volatile boolean paused;
    private static final String BY_JOB = "job";

    private TrainingOperator(KubernetesClient client, String cluster) {
        this.client = client;
        this.cluster = cluster;
        // Several workers, as the real operator's: a job's reconciling waits for the API server (its pods, its
        // status), and with one worker every job queued behind it waited as long.
        AtomicInteger workers = new AtomicInteger();
        this.work = Executors.newFixedThreadPool(WORKERS, runnable -> {
            Thread thread = new Thread(runnable, "training-operator-" + cluster + "-" + workers.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.jobs = client.resources(PyTorchJob.class).inAnyNamespace().inform(handler(job -> job.getMetadata().getNamespace() + "/"
                + job.getMetadata().getName()));
        SharedIndexInformer<Pod> podInformer = client.pods().inAnyNamespace().withLabel(JOB_NAME).runnableInformer(0);
        podInformer.addIndexers(Map.of(BY_JOB, pod -> List.of(jobKey(pod))));
        podInformer.addEventHandler(handler(TrainingOperator::jobKey));
        this.pods = podInformer;
        podInformer.run();
    }

    public static TrainingOperator start(KubernetesClient client, String cluster) {
        TrainingOperator operator = new TrainingOperator(client, cluster);
        operator.jobs.getStore().listKeys().forEach(operator::enqueue);
        return operator;
    }

    /** {@code namespace/job} of the job a pod belongs to, by its job-name label. */
    private static String jobKey(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getLabels().get(JOB_NAME);
    }

    /** Like a real controller, every change of a job or of one of its pods queues that job, once, for reconciling. */
    private <T> ResourceEventHandler<T> handler(java.util.function.Function<T, String> key) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object) {
                enqueue(key.apply(object));
            }

            @Override
            public void onUpdate(T old, T object) {
                enqueue(key.apply(object));
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                enqueue(key.apply(object));
            }
        };
    }

    /**
     * Stops reconciling, as an operator that is down: pods are neither made nor collected with their deleted job until
     * {@link #resume}.
     */
    public void pause() {
        paused = true;
    }

    /** Reconciles again, every job changed meanwhile first. */
    public void resume() {
        paused = false;
        for (String key : java.util.List.copyOf(heldBack)) {
            heldBack.remove(key);
            enqueue(key);
        }
    }

    private void enqueue(String key) {
        if (work.isShutdown()) {
            return;
        }
        if (paused) {
            heldBack.add(key);
            return;
        }
        boolean[] idle = {false};
        active.compute(key, (ignored, changedSince) -> {
            idle[0] = changedSince == null;
            return idle[0] ? Boolean.FALSE : Boolean.TRUE;
        });
        if (idle[0]) {
            work.execute(() -> reconcileWhileChanged(key));
        }
    }

    private void reconcileWhileChanged(String key) {
        do {
            active.put(key, Boolean.FALSE);
            reconcileKey(key);
        } while (active.computeIfPresent(key, (ignored, changedSince) -> changedSince ? Boolean.FALSE : null) != null);
    }

    private void reconcileKey(String key) {
        if (jobs == null || pods == null) {
            // An informer's first events arrived while the constructor was still starting the other; start() queues every job.
            return;
        }
        PyTorchJob job = jobs.getStore().getByKey(key);
        try {
            if (job != null) {
                reconcile(job);
            }
            collectOrphans(key, job);
        } catch (RuntimeException e) {
            if (!work.isShutdown()) {
                LOG.log(System.Logger.Level.WARNING, cluster + ": reconciling " + key + " failed; retried in a second", e);
                CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(() -> enqueue(key));
            }
        }
    }

    /** The job's pods, by the job-name label the operator gave them. */
    private List<Pod> podsOf(PyTorchJob job) {
        return pods.getIndexer().byIndex(BY_JOB, job.getMetadata().getNamespace() + "/" + job.getMetadata().getName());
    }

    /**
     * Like the API server's garbage collector: pods whose job was deleted go with it, by their owner reference
     * (a job deleted and made again under the same name is another owner).
     */
    private void collectOrphans(String key, PyTorchJob job) {
        String liveUid = job == null ? null : job.getMetadata().getUid();
        for (Pod pod : pods.getIndexer().byIndex(BY_JOB, key)) {
            boolean orphan = pod.getMetadata().getOwnerReferences().stream()
                    .anyMatch(owner -> PyTorchJob.KIND.equals(owner.getKind()) && !java.util.Objects.equals(owner.getUid(), liveUid));
            if (orphan && pod.getMetadata().getDeletionTimestamp() == null) {
                try {
                    client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
                } catch (RuntimeException e) {
                    if (work.isShutdown()) {
                        return;
                    }
                    LOG.log(System.Logger.Level.WARNING, cluster + ": deleting orphan pod " + pod.getMetadata().getName() + " failed", e);
                }
            }
        }
    }

    private void reconcile(PyTorchJob job) {
        if (job.getMetadata().getDeletionTimestamp() != null || job.getSpec() == null) {
            return;
        }
        List<Pod> existing = podsOf(job);
        if (existing.isEmpty() && !hasCondition(job, "Created")) {
            desiredPods(job).forEach(this::create);
            updateStatus(job, "Created", "PyTorchJobCreated", "PyTorchJob " + job.getMetadata().getName() + " is created.", List.of());
            return;
        }
        if (isTrue(job, "Succeeded") || isTrue(job, "Failed")) {
            return;
        }
        List<Pod> retryable = existing.stream().filter(pod -> "Failed".equals(phase(pod)) && isRetryable(job, pod)).toList();
        if (!retryable.isEmpty()) {
            // restartPolicy ExitCode: a pod killed by a signal (exit code 128 or more) is deleted and made again.
            retryable.forEach(pod -> client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete());
            updateStatus(job, "Restarting", "PyTorchJobRestarting", "PyTorchJob " + job.getMetadata().getName() + " is restarting because "
                    + retryable.size() + " replica(s) failed with a retryable exit code.", existing);
            return;
        }
        recreateMissing(job, existing);
        int total = totalReplicas(job);
        long running = existing.stream().filter(pod -> "Running".equals(phase(pod))).count();
        long succeeded = existing.stream().filter(pod -> "Succeeded".equals(phase(pod))).count();
        long failed = existing.stream().filter(pod -> "Failed".equals(phase(pod))).count();
        Integer backoffLimit = job.getSpec().runPolicy() == null ? null : job.getSpec().runPolicy().backoffLimit();
        int restarts = existing.stream().mapToInt(TrainingOperator::restarts).sum();
        if (failed > 0) {
            updateStatus(job, "Failed", "PyTorchJobFailed", failed + " pod(s) of " + job.getMetadata().getName() + " failed.", existing);
        } else if (backoffLimit != null && restarts > backoffLimit) {
            updateStatus(job, "Failed", "BackoffLimitExceeded", "PyTorchJob " + job.getMetadata().getName()
                    + " has failed because it has reached the specified backoff limit (" + backoffLimit + ").", existing);
        } else if (succeeded == total && total > 0) {
            updateStatus(job, "Succeeded", "PyTorchJobSucceeded", "PyTorchJob " + job.getMetadata().getName() + " is successfully completed.", existing);
        } else if (running == total && total > 0 && !isTrue(job, "Running")) {
            updateStatus(job, "Running", "PyTorchJobRunning", "PyTorchJob " + job.getMetadata().getName() + " is running.", existing);
        }
    }

    /** Like the real operator, pods that went away (deleted, evicted) while the job runs are made again. */
    private void recreateMissing(PyTorchJob job, List<Pod> existing) {
        Set<String> present = new HashSet<>();
        existing.forEach(pod -> present.add(pod.getMetadata().getName()));
        desiredPods(job).stream().filter(pod -> !present.contains(pod.getMetadata().getName())).forEach(pod -> {
            create(pod);
            LOG.log(System.Logger.Level.INFO, cluster + ": PyTorchJob " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName()
                    + " lost pod " + pod.getMetadata().getName() + "; created it again");
        });
    }

    private void create(Pod pod) {
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            // Still there, being deleted: the next change makes it again.
        }
    }

    private static boolean isRetryable(PyTorchJob job, Pod pod) {
        String type = capitalize(pod.getMetadata().getLabels().get(REPLICA_TYPE));
        ReplicaSpec replica = job.getSpec().pytorchReplicaSpecs().get(type);
        if (replica == null || !"ExitCode".equals(replica.restartPolicy()) || pod.getStatus().getContainerStatuses() == null) {
            return false;
        }
        return pod.getStatus().getContainerStatuses().stream().anyMatch(status -> status.getState() != null
                && status.getState().getTerminated() != null && status.getState().getTerminated().getExitCode() != null
                && status.getState().getTerminated().getExitCode() >= 128);
    }

    private static int restarts(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return 0;
        }
        return pod.getStatus().getContainerStatuses().stream().mapToInt(status -> status.getRestartCount() == null ? 0 : status.getRestartCount()).sum();
    }

    /** The pods of the job, as the Kubeflow training operator names and labels them. */
    static List<Pod> desiredPods(PyTorchJob job) {
        List<GangPod> gang = GangPod.of(job);
        boolean hasMaster = job.getSpec().pytorchReplicaSpecs().containsKey(ReplicaType.MASTER.specName());
        String masterAddress = GangPod.name(job.getMetadata().getName(), hasMaster ? ReplicaType.MASTER : ReplicaType.WORKER, 0);
        List<Pod> pods = new ArrayList<>();
        for (GangPod member : gang) {
            ReplicaSpec replica = job.getSpec().pytorchReplicaSpecs().get(member.type().specName());
            pods.add(pod(job, replica, member.name(), member.type(), member.index(), member.rank(), gang.size(), masterAddress));
        }
        return pods;
    }

    private static Pod pod(PyTorchJob job, ReplicaSpec replica, String podName, ReplicaType type, int index, int rank,
                           int worldSize, String masterAddress) {
        ObjectMeta template = replica.template().getMetadata() == null ? new ObjectMeta() : replica.template().getMetadata();
        Map<String, String> labels = new LinkedHashMap<>(template.getLabels() == null ? Map.of() : template.getLabels());
        if (job.getMetadata().getLabels() != null) {
            job.getMetadata().getLabels().forEach((key, value) -> {
                if (key.startsWith(GANG_LABEL_PREFIX)) {
                    labels.put(key, value);
                }
            });
        }
        labels.put(JOB_NAME, job.getMetadata().getName());
        labels.put(REPLICA_TYPE, type.label());
        labels.put(REPLICA_INDEX, String.valueOf(index));
        labels.put(PYTORCH_REPLICA_INDEX, String.valueOf(index));
        PodSpec spec = new PodBuilder().withSpec(replica.template().getSpec()).build().getSpec();
        spec.getContainers().forEach(container -> {
            List<EnvVar> env = new ArrayList<>(container.getEnv() == null ? List.of() : container.getEnv());
            env.add(new EnvVar("MASTER_ADDR", masterAddress, null));
            env.add(new EnvVar("MASTER_PORT", String.valueOf(MASTER_PORT), null));
            env.add(new EnvVar("WORLD_SIZE", String.valueOf(worldSize), null));
            env.add(new EnvVar("RANK", String.valueOf(rank), null));
            container.setEnv(env);
        });
        if (spec.getRestartPolicy() == null && replica.restartPolicy() != null) {
            // ExitCode is the operator's own policy: the kubelet never restarts, the operator decides by the exit code.
            spec.setRestartPolicy("ExitCode".equals(replica.restartPolicy()) ? "Never" : replica.restartPolicy());
        }
        return new PodBuilder()
                .withNewMetadata().withName(podName).withNamespace(job.getMetadata().getNamespace()).withLabels(labels)
                .withAnnotations(template.getAnnotations())
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(PyTorchJob.API_VERSION).withKind(PyTorchJob.KIND)
                        .withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid()).withController(true).build())
                .endMetadata()
                .withSpec(spec)
                .build();
    }

    private void updateStatus(PyTorchJob job, String type, String reason, String message, List<Pod> pods) {
        String now = Instant.now().toString();
        StatusWrites.write(client.resources(PyTorchJob.class).inNamespace(job.getMetadata().getNamespace()), job,
                current -> {
                    PyTorchJobStatus status = current.getStatus();
                    if (status != null && status.conditions().stream().anyMatch(condition -> type.equals(condition.type())
                            && "True".equals(condition.status()) && reason.equals(condition.reason()))) {
                        // Already so (a reconcile from a stale read, its write retried on what is there now): like the real
                        // operator, a condition's transition time changes only when the condition does.
                        return current;
                    }
                    List<JobCondition> conditions = new ArrayList<>(status == null ? List.of() : status.conditions());
                    // Like the real operator: the previous state stays in the list, no longer True.
                    conditions.replaceAll(condition -> "True".equals(condition.status()) && !"Created".equals(condition.type())
                            ? new JobCondition(condition.type(), "False", condition.reason(), condition.message(), now, now) : condition);
                    // One condition per type: a job Running again after Restarting updates its Running condition.
                    conditions.removeIf(condition -> type.equals(condition.type()));
                    conditions.add(new JobCondition(type, "True", reason, message, now, now));
                    current.setStatus(new PyTorchJobStatus(conditions, replicaStatuses(pods),
                            status == null || status.startTime() == null ? now : status.startTime(),
                            "Succeeded".equals(type) || "Failed".equals(type) ? now : null, now, Map.of()));
                    return current;
                }, client.getKubernetesSerialization());
        LOG.log(System.Logger.Level.INFO, cluster + ": PyTorchJob " + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName() + " " + type);
    }

    private static Map<String, ReplicaStatus> replicaStatuses(List<Pod> pods) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        for (Pod pod : pods) {
            String type = ReplicaType.fromSpecName(capitalize(pod.getMetadata().getLabels().get(REPLICA_TYPE))).map(ReplicaType::specName).orElse("Worker");
            int[] count = counts.computeIfAbsent(type, key -> new int[3]);
            switch (String.valueOf(phase(pod))) {
                case "Succeeded" -> count[1]++;
                case "Failed" -> count[2]++;
                default -> count[0]++;
            }
        }
        Map<String, ReplicaStatus> statuses = new LinkedHashMap<>();
        counts.forEach((type, count) -> statuses.put(type, new ReplicaStatus(count[0], count[1], count[2], null, null)));
        return statuses;
    }

    private static String capitalize(String label) {
        return label == null || label.isEmpty() ? "" : Character.toUpperCase(label.charAt(0)) + label.substring(1);
    }

    private static String phase(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getPhase();
    }

    private static boolean isTrue(PyTorchJob job, String type) {
        return job.getStatus() != null && job.getStatus().conditions().stream()
                .anyMatch(condition -> type.equals(condition.type()) && "True".equals(condition.status()));
    }

    private static boolean hasCondition(PyTorchJob job, String type) {
        return job.getStatus() != null && job.getStatus().conditions().stream().anyMatch(condition -> type.equals(condition.type()));
    }

    private static int totalReplicas(PyTorchJob job) {
        return job.getSpec().pytorchReplicaSpecs().values().stream().mapToInt(ReplicaSpec::replicaCount).sum();
    }

    @Override
    public void close() {
        work.shutdownNow();
        jobs.close();
        pods.close();
    }
}
