package dev.muster.model.job;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.validation.Limits;
import dev.muster.model.validation.Violation;
import dev.muster.model.validation.Violations;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;

/**
 * Checks a PyTorchJob before Muster accepts it: what the Kubeflow training operator would reject on a
 * member, found at the fleet instead, plus what Muster needs to compute a demand (parsable, non-negative
 * quantities and at least one pod).
 */
public final class PyTorchJobValidator {

    /** The container the training operator looks for in every replica. */
    public static final String DEFAULT_CONTAINER = "pytorch";

    private static final Set<String> RESTART_POLICIES = Set.of("Always", "OnFailure", "Never", "ExitCode");
    // The operator names pods and services after the job, so the name must be a DNS-1035 label.
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final int MAX_NAME_LENGTH = 63;

    private PyTorchJobValidator() {
    }

    /** Every violation found; empty when the job is valid. */
    public static List<Violation> validate(PyTorchJob job) {
        Violations violations = new Violations();
        if (!PyTorchJob.API_VERSION.equals(job.getApiVersion())) {
            violations.add("apiVersion", "must be " + PyTorchJob.API_VERSION + ", got " + quoted(job.getApiVersion()));
        }
        validateName(job, violations);
        PyTorchJobSpec spec = job.getSpec();
        if (spec == null) {
            violations.add("spec", "is required");
            return violations.list();
        }
        Map<String, ReplicaSpec> replicaSpecs = spec.pytorchReplicaSpecs();
        if (replicaSpecs == null || replicaSpecs.isEmpty()) {
            violations.add("spec.pytorchReplicaSpecs", "must define at least one replica type (Master, Worker)");
            return violations.list();
        }
        long totalReplicas = 0;
        for (Map.Entry<String, ReplicaSpec> entry : replicaSpecs.entrySet()) {
            String path = "spec.pytorchReplicaSpecs." + entry.getKey();
            if (ReplicaType.fromSpecName(entry.getKey()).isEmpty()) {
                violations.add(path, "unknown replica type, must be one of Master, Worker");
                continue;
            }
            if (entry.getValue() == null) {
                violations.add(path, "is required");
                continue;
            }
            totalReplicas += validateReplica(path, ReplicaType.fromSpecName(entry.getKey()).get(), entry.getValue(), violations);
        }
        if (violations.isEmpty() && totalReplicas == 0) {
            violations.add("spec.pytorchReplicaSpecs", "total replicas must be > 0, got 0");
        } else if (totalReplicas > Limits.current().maxPodsPerGang()) {
            violations.add("spec.pytorchReplicaSpecs", "total replicas must be at most " + Limits.current().maxPodsPerGang()
                    + " (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got " + totalReplicas);
        }
        validateSchedulingPolicy(spec.runPolicy(), (int) Math.min(totalReplicas, Integer.MAX_VALUE), violations);
        TopologyRequest.validate(job, violations);
        return violations.list();
    }

    private static void validateName(PyTorchJob job, Violations violations) {
        String namespace = job.getMetadata() == null ? null : job.getMetadata().getNamespace();
        if (namespace != null && (namespace.length() > MAX_NAME_LENGTH || !DNS_1123_LABEL.matcher(namespace).matches())) {
            violations.add("metadata.namespace", "must be a DNS-1123 label (lower case letters, digits and '-', starting and ending"
                    + " with a letter or digit, at most 63 characters), got " + quoted(namespace));
        }
        String name = job.getMetadata() == null ? null : job.getMetadata().getName();
        if (name == null || name.isEmpty()) {
            violations.add("metadata.name", "is required");
        } else if (name.length() > MAX_NAME_LENGTH || !DNS_1035_LABEL.matcher(name).matches()) {
            violations.add("metadata.name", "must be a DNS-1035 label (lower case letters, digits and '-', starting"
                    + " with a letter, at most 63 characters), got " + quoted(name));
        }
    }

    private static int validateReplica(String path, ReplicaType type, ReplicaSpec replica, Violations violations) {
        int replicas = replica.replicaCount();
        if (replicas < 0) {
            violations.add(path + ".replicas", "must be >= 0, got " + replicas);
        } else if (replicas > Limits.current().maxPodsPerGang()) {
            violations.add(path + ".replicas", "must be at most " + Limits.current().maxPodsPerGang()
                    + " (Muster's limit of pods per gang, muster.limits.max-pods-per-gang), got " + replicas);
        } else if (type == ReplicaType.MASTER && replicas > 1) {
            violations.add(path + ".replicas", "must be 0 or 1 for Master, got " + replicas);
        }
        if (replica.restartPolicy() != null && !RESTART_POLICIES.contains(replica.restartPolicy())) {
            violations.add(path + ".restartPolicy", "must be one of Always, OnFailure, Never, ExitCode, got "
                    + quoted(replica.restartPolicy()));
        }
        PodSpec pod = replica.template() == null ? null : replica.template().getSpec();
        if (pod == null) {
            violations.add(path + ".template.spec", "is required");
            return Math.max(replicas, 0);
        }
        validatePod(path + ".template.spec", pod, violations);
        return Math.max(replicas, 0);
    }

    private static void validatePod(String path, PodSpec pod, Violations violations) {
        List<Container> containers = pod.getContainers();
        if (containers == null || containers.isEmpty()) {
            violations.add(path + ".containers", "must have at least one container");
        } else if (containers.stream().noneMatch(container -> container != null && DEFAULT_CONTAINER.equals(container.getName()))) {
            violations.add(path + ".containers", "must include a container named \"" + DEFAULT_CONTAINER + "\"");
        }
        validateContainers(path + ".containers", containers, violations);
        validateContainers(path + ".initContainers", pod.getInitContainers(), violations);
        violations.quantities(path + ".overhead", pod.getOverhead());
    }

    private static void validateContainers(String path, List<Container> containers, Violations violations) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            Container container = containers.get(i);
            String containerPath = path + "[" + i + "]";
            if (container == null) {
                violations.add(containerPath, "must be a container, got null");
                continue;
            }
            if (container.getImage() == null || container.getImage().isBlank()) {
                violations.add(containerPath + ".image", "is required");
            }
            if (container.getResources() == null) {
                continue;
            }
            ResourceList requests = violations.quantities(containerPath + ".resources.requests", container.getResources().getRequests());
            ResourceList limits = violations.quantities(containerPath + ".resources.limits", container.getResources().getLimits());
            for (String name : requests.exceeding(limits)) {
                violations.add(containerPath + ".resources.requests." + name, "must be less than or equal to "
                        + name + " limit " + limits.format(name) + ", got " + requests.format(name));
            }
        }
    }

    private static void validateSchedulingPolicy(RunPolicy runPolicy, int totalReplicas, Violations violations) {
        if (runPolicy == null || runPolicy.schedulingPolicy() == null) {
            return;
        }
        SchedulingPolicy scheduling = runPolicy.schedulingPolicy();
        Integer minAvailable = scheduling.minAvailable();
        if (minAvailable != null && (minAvailable < 1 || minAvailable > totalReplicas)) {
            violations.add("spec.runPolicy.schedulingPolicy.minAvailable", "must be between 1 and the total replicas "
                    + totalReplicas + ", got " + minAvailable);
        }
        violations.quantities("spec.runPolicy.schedulingPolicy.minResources", scheduling.minResources());
    }

    private static String quoted(String value) {
        return value == null ? "nothing" : "\"" + value + "\"";
    }
}
