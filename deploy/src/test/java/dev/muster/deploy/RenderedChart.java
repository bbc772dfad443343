package dev.muster.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;

/**
 * Muster's Helm chart rendered as {@code helm template} renders it (helm's own Go code, through helm-java: no cluster,
 * no download), each object read into its typed model, fabric8's or Strimzi's, refusing any field the model does not
 * know: a misspelt or misplaced field is a failure here, not an object a cluster would quietly prune.
 */
final class RenderedChart {

    static final Path CHART = Path.of("helm", "muster");

    /** The kinds the chart renders, each with its model class. */
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Secret", Secret.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("v1/ServiceAccount", ServiceAccount.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("apps/v1/StatefulSet", StatefulSet.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRole", ClusterRole.class),
            Map.entry("rbac.authorization.k8s.io/v1/ClusterRoleBinding", ClusterRoleBinding.class),
            Map.entry("monitoring.coreos.com/v1/ServiceMonitor", ServiceMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class),
            Map.entry("kafka.strimzi.io/v1/Kafka", Kafka.class),
            Map.entry("kafka.strimzi.io/v1/KafkaNodePool", KafkaNodePool.class),
            Map.entry("kafka.strimzi.io/v1/KafkaTopic", KafkaTopic.class),
            Map.entry("kafka.strimzi.io/v1/KafkaUser", KafkaUser.class));

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final List<HasMetadata> objects;

    private RenderedChart(List<HasMetadata> objects) {
        this.objects = List.copyOf(objects);
    }

    /** The chart rendered with its default values and these settings ({@code --set name=value}). */
    static RenderedChart render(Map<String, Object> settings) {
        return render(settings, null);
    }

    /** The chart rendered with a values file and these settings. */
    static RenderedChart render(Map<String, Object> settings, Path valuesFile) {
        // As against a Kubernetes the chart supports (helm template assumes 1.20 otherwise).
        TemplateCommand template = new Helm(CHART).template().withName("muster").withNamespace("muster").withKubeVersion("1.30.0");
        settings.forEach(template::set);
        if (valuesFile != null) {
            template.withValuesFile(valuesFile);
        }
        return read(template.call());
    }

    static RenderedChart read(String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        try (MappingIterator<JsonNode> documents = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                if (document == null || document.isNull() || document.isEmpty()) {
                    continue;
                }
                String kind = document.path("apiVersion").asText() + "/" + document.path("kind").asText();
                Class<? extends HasMetadata> type = KINDS.get(kind);
                if (type == null) {
                    throw new AssertionError("the chart renders a kind its tests do not know: " + kind);
                }
                HasMetadata object = YAML.treeToValue(document, type);
                assertNoUnknownField(object, kind + " " + object.getMetadata().getName());
                objects.add(object);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RenderedChart(objects);
    }

    List<HasMetadata> objects() {
        return objects;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return all(type).stream().filter(object -> object.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in the chart; it has "
                        + all(type).stream().map(object -> object.getMetadata().getName()).toList()));
    }

    /**
     * The models keep what they do not know in {@code additionalProperties} instead of failing (fabric8's and Strimzi's
     * alike), so an unknown field is found by walking the object: every such map on the way must be empty.
     */
    static void assertNoUnknownField(Object root, String what) {
        walk(root, what, new IdentityHashMap<>(), (path, unknown) -> {
            throw new AssertionError(what + ": fields the model does not know at " + path + ": " + unknown.keySet());
        });
    }

    private interface UnknownFieldHandler {
        void found(String path, Map<?, ?> unknown);
    }

    private static void walk(Object value, String path, Map<Object, Boolean> seen, UnknownFieldHandler handler) {
        if (value == null || value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof Enum<?>
                || seen.put(value, Boolean.TRUE) != null) {
            return;
        }
        if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                walk(element, path + "[" + index++ + "]", seen, handler);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, element) -> walk(element, path + "." + key, seen, handler));
            return;
        }
        String packageName = value.getClass().getPackageName();
        if (!packageName.startsWith("io.fabric8") && !packageName.startsWith("io.strimzi")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers()) || getter.getDeclaringClass() == Object.class
                    || !(getter.getName().startsWith("get") || getter.getName().startsWith("is"))) {
                continue;
            }
            Object property;
            try {
                property = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (property instanceof Map<?, ?> unknown && !unknown.isEmpty()) {
                    handler.found(path, unknown);
                }
                continue;
            }
            walk(property, path + "." + getter.getName().replaceFirst("^(get|is)", ""), seen, handler);
        }
    }

    /** The settings in a service's application.properties, as the chart writes them. */
    Map<String, String> properties(String configMap) {
        java.util.Properties properties = new java.util.Properties();
        try {
            properties.load(new java.io.StringReader(named(ConfigMap.class, configMap).getData().get("application.properties")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> settings = new java.util.TreeMap<>();
        properties.forEach((name, value) -> settings.put((String) name, (String) value));
        return settings;
    }
}
