package dev.muster.statussync.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * A JSON patch that applies only to the version of an object status sync last wrote or read: its {@code test} of the
 * {@code resourceVersion} (and of the UID, when given) makes the API server refuse it (422) when another is there, which
 * the writer then reads. Status sync is the only writer of what it patches so, so the usual write is one request.
 */
final class VersionedPatch {

    private VersionedPatch() {
    }

    /**
     * @param uid             the object's UID to test, or null not to
     * @param resourceVersion the version to test, or null (an object without one) not to
     * @param operations      what to change, in JSON patch operations
     */
    @SafeVarargs
    static String of(KubernetesSerialization serialization, String uid, String resourceVersion, Map<String, Object>... operations) {
        List<Map<String, Object>> patch = new ArrayList<>(operations.length + 2);
        if (uid != null) {
            patch.add(Map.of("op", "test", "path", "/metadata/uid", "value", uid));
        }
        if (resourceVersion != null) {
            patch.add(Map.of("op", "test", "path", "/metadata/resourceVersion", "value", resourceVersion));
        }
        patch.addAll(List.of(operations));
        return serialization.asJson(patch);
    }
}
