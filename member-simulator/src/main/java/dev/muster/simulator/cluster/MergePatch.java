package dev.muster.simulator.cluster;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A JSON merge patch (RFC 7386), as a Kubernetes API server applies {@code kubectl apply}'s patches to custom resources:
 * objects merge field by field, a null removes a field, and anything else, lists included, replaces what was there.
 * (fabric8's mock server appended lists instead, so that no change to a list could be undone.)
 */
final class MergePatch {

    private MergePatch() {
    }

    /** The target with the patch applied; the target is changed in place when both are objects. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : ((ObjectNode) patch).objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> fields = patch.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }
}
