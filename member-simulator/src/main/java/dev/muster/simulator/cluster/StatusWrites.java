package dev.muster.simulator.cluster;

import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * How the simulated controllers write an object's status: from the copy their informer last showed them, in one
 * JSON patch that applies only to that version; if the object changed since (the patch's test fails, 422), read it
 * and write again. A controller's copy is nearly always current, so the usual write is one request instead of a read,
 * a diff computed client-side and a patch, which every status change of every simulated job paid.
 */
public final class StatusWrites {

    private StatusWrites() {
    }

    /**
     * Writes {@code change} of the object's status, starting from {@code seen}, the controller's copy of it.
     *
     * @param objects the objects of its kind in its namespace
     */
    public static <T extends HasMetadata> void write(NonNamespaceOperation<T, ?, ? extends Resource<T>> objects, T seen, UnaryOperator<T> change,
                                                     KubernetesSerialization serialization) {
        String version = seen.getMetadata() == null ? null : seen.getMetadata().getResourceVersion();
        if (version != null) {
            JsonNode status = serialization.convertValue(change.apply(serialization.clone(seen)), JsonNode.class).get("status");
            if (status != null && !status.isNull()) {
                ArrayNode patch = JsonNodeFactory.instance.arrayNode();
                patch.addObject().put("op", "test").put("path", "/metadata/resourceVersion").put("value", version);
                patch.addObject().put("op", "add").put("path", "/status").set("value", status);
                try {
                    // Named through the copy: fabric8 reads an object only named first, to find what to patch.
                    objects.resource(seen).subresource("status").patch(PatchContext.of(PatchType.JSON), patch.toString());
                    return;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 422) {
                        throw e;
                    }
                    // Changed since the controller saw it: read and write what is there now.
                }
            }
        }
        objects.withName(seen.getMetadata().getName()).editStatus(change);
    }
}
