package dev.muster.model.json;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Holds the fields of an API object that Muster does not model, so that they survive a read and a
 * write unchanged (a newer Kubeflow or Kube Queue field must not be dropped on its way to a member).
 */
public final class UnknownFields {

    private UnknownFields() {
    }

    /** An unmodifiable copy keeping the original order; JSON nulls are kept as null values. */
    public static Map<String, Object> copyOf(Map<String, Object> fields) {
        if (fields == null || fields.isEmpty()) {
            return Map.of();
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }
}
