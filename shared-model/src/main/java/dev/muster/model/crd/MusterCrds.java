package dev.muster.model.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.muster.model.job.PyTorchJob;
import dev.muster.model.json.MusterJson;
import dev.muster.model.policy.PropagationPolicy;
import dev.muster.model.queue.Queue;
import dev.muster.model.queue.QueueUnit;
import dev.muster.model.quota.ElasticQuotaTree;
import dev.muster.model.reservation.Reservation;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/**
 * The CustomResourceDefinitions of the kinds Muster serves and reads, as fabric8's CRD generator writes them from the
 * model classes at build time ({@code META-INF/fabric8/}): one source for the schemas the local fleet API validates by
 * and documents, and for the definitions a fleet is given.
 * <p>
 * Two things are set right as they are read. The model's records keep the fields they do not know in a map that the
 * generator lists as a property named {@code additionalProperties}; it is an object whose unknown fields are kept
 * ({@code x-kubernetes-preserve-unknown-fields}), not a field. And the generator orders printer columns by name, where
 * Kubernetes' definitions put {@code Age} last.
 */
public final class MusterCrds {

    /** What the fleet API serves: jobs, policies, the quota tree, and Kube Queue's queues and queue units. */
    public static final List<Class<? extends HasMetadata>> FLEET = List.of(PyTorchJob.class, PropagationPolicy.class,
            ElasticQuotaTree.class, Queue.class, QueueUnit.class);

    private static final String UNKNOWN_FIELDS = "additionalProperties";
    private static final String PRESERVE = "x-kubernetes-preserve-unknown-fields";

    private MusterCrds() {
    }

    /** The definitions of {@link #FLEET}. */
    public static List<CustomResourceDefinition> fleet() {
        return FLEET.stream().map(MusterCrds::of).toList();
    }

    /** The definition of one kind. */
    public static CustomResourceDefinition of(Class<? extends HasMetadata> type) {
        String name = HasMetadata.getPlural(type) + "." + HasMetadata.getGroup(type);
        String resource = "META-INF/fabric8/" + name + "-v1.yml";
        try (InputStream in = MusterCrds.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no generated CRD " + resource + " on the class path (built by shared-model's crd-generator)");
            }
            JsonNode crd = MusterJson.yaml().readTree(in);
            crd.path("spec").path("versions").forEach(version -> normalize(version.path("schema").path("openAPIV3Schema")));
            CustomResourceDefinition definition = MusterJson.json().treeToValue(crd, CustomResourceDefinition.class);
            definition.getSpec().getVersions().forEach(version -> version.setAdditionalPrinterColumns(ageLast(version.getAdditionalPrinterColumns())));
            return definition;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** Every object schema whose properties hold the model's unknown-fields map keeps unknown fields instead. */
    private static void normalize(JsonNode schema) {
        if (!(schema instanceof ObjectNode object)) {
            return;
        }
        if (object.path("properties") instanceof ObjectNode properties && properties.has(UNKNOWN_FIELDS)
                && properties.get(UNKNOWN_FIELDS).path("type").asText().equals("object")) {
            properties.remove(UNKNOWN_FIELDS);
            object.put(PRESERVE, true);
        }
        for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isObject()) {
                if (field.getKey().equals("properties")) {
                    field.getValue().forEach(MusterCrds::normalize);
                } else {
                    normalize(field.getValue());
                }
            } else if (field.getValue().isArray()) {
                field.getValue().forEach(MusterCrds::normalize);
            }
        }
    }

    private static List<CustomResourceColumnDefinition> ageLast(List<CustomResourceColumnDefinition> columns) {
        if (columns == null) {
            return null;
        }
        List<CustomResourceColumnDefinition> ordered = new ArrayList<>(columns);
        ordered.sort(Comparator.comparing(column -> "Age".equals(column.getName())));
        return ordered;
    }

    /** The kinds a member serves beside its own: Muster's jobs, and koordinator's reservations where it has them. */
    public static CustomResourceDefinition reservations() {
        return of(Reservation.class);
    }
}
