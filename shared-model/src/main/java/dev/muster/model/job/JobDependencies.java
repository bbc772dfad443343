package dev.muster.model.job;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;

/**
 * The ConfigMaps and Secrets a job's pods reference (volumes, projected volumes, {@code env} and {@code envFrom},
 * image pull secrets): what must exist on a member before the job can run there, and what placement copies when
 * the policy says {@code propagateDeps: true}.
 */
public final class JobDependencies {

    /** One object the pods need, in the job's namespace. */
    public record Dependency(String kind, String name) implements Comparable<Dependency> {

        public static final String CONFIG_MAP = "ConfigMap";
        public static final String SECRET = "Secret";

        @Override
        public int compareTo(Dependency other) {
            int byKind = kind.compareTo(other.kind);
            return byKind != 0 ? byKind : name.compareTo(other.name);
        }
    }

    private JobDependencies() {
    }

    /** Every ConfigMap and Secret the job's pod templates reference, sorted by kind then name. */
    public static List<Dependency> of(PyTorchJob job) {
        Set<Dependency> found = new TreeSet<>();
        for (GangPod pod : GangPod.of(job)) {
            collect(pod.spec(), found::add);
        }
        return List.copyOf(found);
    }

    private static void collect(PodSpec spec, Consumer<Dependency> found) {
        for (Volume volume : list(spec.getVolumes())) {
            if (volume.getConfigMap() != null) {
                add(found, Dependency.CONFIG_MAP, volume.getConfigMap().getName());
            }
            if (volume.getSecret() != null) {
                add(found, Dependency.SECRET, volume.getSecret().getSecretName());
            }
            if (volume.getProjected() != null) {
                for (VolumeProjection source : list(volume.getProjected().getSources())) {
                    if (source.getConfigMap() != null) {
                        add(found, Dependency.CONFIG_MAP, source.getConfigMap().getName());
                    }
                    if (source.getSecret() != null) {
                        add(found, Dependency.SECRET, source.getSecret().getName());
                    }
                }
            }
        }
        for (LocalObjectReference pullSecret : list(spec.getImagePullSecrets())) {
            add(found, Dependency.SECRET, pullSecret.getName());
        }
        for (Container container : concat(spec.getInitContainers(), spec.getContainers())) {
            for (EnvVar env : list(container.getEnv())) {
                if (env.getValueFrom() != null && env.getValueFrom().getConfigMapKeyRef() != null) {
                    add(found, Dependency.CONFIG_MAP, env.getValueFrom().getConfigMapKeyRef().getName());
                }
                if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                    add(found, Dependency.SECRET, env.getValueFrom().getSecretKeyRef().getName());
                }
            }
            for (EnvFromSource source : list(container.getEnvFrom())) {
                if (source.getConfigMapRef() != null) {
                    add(found, Dependency.CONFIG_MAP, source.getConfigMapRef().getName());
                }
                if (source.getSecretRef() != null) {
                    add(found, Dependency.SECRET, source.getSecretRef().getName());
                }
            }
        }
    }

    private static void add(Consumer<Dependency> found, String kind, String name) {
        if (name != null && !name.isBlank()) {
            found.accept(new Dependency(kind, name));
        }
    }

    private static <T> List<T> list(List<T> values) {
        return values == null ? List.of() : values;
    }

    private static List<Container> concat(List<Container> first, List<Container> second) {
        List<Container> all = new java.util.ArrayList<>(list(first));
        all.addAll(list(second));
        return all;
    }
}
