package dev.muster.model.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.muster.model.validation.Violations;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * Where in a member cluster a job's gang must, or would rather, run: all its pods within one domain of a topology
 * level (the nodes sharing one value of a node label, such as a rack). Asked for with Kueue's Topology Aware
 * Scheduling annotations on the replicas' pod templates, so a job written for Kueue asks Muster the same:
 * {@value #REQUIRED} or {@value #PREFERRED}, whose value is the level's node label. Muster places the whole gang in one
 * domain (Kueue places each pod set in its own): the templates that name a level must name the same one.
 *
 * @param level    the node label whose values are the level's domains, e.g. {@code cloud.provider.com/topology-rack}
 * @param required every pod in one domain of the level, or the cluster does not fit; else preferred: as few domains as
 *                 possible, never refused for it
 */
public record TopologyRequest(String level, boolean required) {

    public static final String REQUIRED = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED = "kueue.x-k8s.io/podset-preferred-topology";

    /** A Kubernetes label key: an optional DNS subdomain prefix and a name of at most 63 characters. */
    private static final Pattern LABEL_KEY = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final int MAX_PREFIX_LENGTH = 253;

    /** What the job asks; empty when none of its templates names a level (or they disagree, which validation refuses). */
    public static Optional<TopologyRequest> of(PyTorchJob job) {
        Map<String, TopologyRequest> named = named(job);
        return named.size() == 0 || named.values().stream().distinct().count() > 1 ? Optional.empty() : Optional.of(named.values().iterator().next());
    }

    /** Adds a violation for a level that is no label key, a template naming both kinds, or templates naming different levels. */
    static void validate(PyTorchJob job, Violations violations) {
        if (job.getSpec() == null || job.getSpec().pytorchReplicaSpecs() == null) {
            return;
        }
        List<String> asked = new ArrayList<>();
        job.getSpec().pytorchReplicaSpecs().forEach((type, replica) -> {
            Map<String, String> annotations = annotations(replica);
            String path = "spec.pytorchReplicaSpecs." + type + ".template.metadata.annotations";
            if (annotations.containsKey(REQUIRED) && annotations.containsKey(PREFERRED)) {
                violations.add(path, "must name either " + REQUIRED + " or " + PREFERRED + ", not both");
            }
            for (String kind : List.of(REQUIRED, PREFERRED)) {
                String level = annotations.get(kind);
                if (annotations.containsKey(kind) && !isLabelKey(level)) {
                    violations.add(path + "." + kind, "must be a node label key naming a topology level (such as "
                            + "cloud.provider.com/topology-rack), got " + (level == null ? "nothing" : "\"" + level + "\""));
                } else if (level != null) {
                    asked.add(type + (REQUIRED.equals(kind) ? " requires " : " prefers ") + level);
                }
            }
        });
        if (named(job).values().stream().distinct().count() > 1) {
            violations.add("spec.pytorchReplicaSpecs", "the whole gang is placed in one topology domain, so every template that names a level"
                    + " must name the same one, got " + String.join(", ", asked));
        }
    }

    /** The request of each template that names one, by replica type. */
    private static Map<String, TopologyRequest> named(PyTorchJob job) {
        Map<String, TopologyRequest> named = new LinkedHashMap<>();
        if (job.getSpec() == null || job.getSpec().pytorchReplicaSpecs() == null) {
            return named;
        }
        job.getSpec().pytorchReplicaSpecs().forEach((type, replica) -> {
            Map<String, String> annotations = annotations(replica);
            if (isLabelKey(annotations.get(REQUIRED))) {
                named.put(type, new TopologyRequest(annotations.get(REQUIRED), true));
            } else if (isLabelKey(annotations.get(PREFERRED))) {
                named.put(type, new TopologyRequest(annotations.get(PREFERRED), false));
            }
        });
        return named;
    }

    private static Map<String, String> annotations(ReplicaSpec replica) {
        PodTemplateSpec template = replica == null ? null : replica.template();
        return template == null || template.getMetadata() == null || template.getMetadata().getAnnotations() == null ? Map.of()
                : template.getMetadata().getAnnotations();
    }

    static boolean isLabelKey(String key) {
        if (key == null || !LABEL_KEY.matcher(key).matches()) {
            return false;
        }
        int slash = key.indexOf('/');
        return slash < 0 || slash <= MAX_PREFIX_LENGTH;
    }

    /** How the request reads in a reason: {@code required topology level cloud.provider.com/topology-rack}. */
    public String describe() {
        return (required ? "required" : "preferred") + " topology level " + level;
    }
}
