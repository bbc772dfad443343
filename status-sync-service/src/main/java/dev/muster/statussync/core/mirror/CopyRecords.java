package dev.muster.statussync.core.mirror;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The copies the mirror keeps on status sync's state topic ({@link RememberedCopy}), and the changes to that topic not
 * written yet: a copy recorded when first seen and again when failed over from, removed once it is gone, finished or
 * preempted (none of which a member that does not answer can change).
 */
final class CopyRecords {

    /** What the topic holds, as far as this instance knows, by key. */
    private final Map<String, RememberedCopy> recorded = new HashMap<>();
    /** Changes not drained yet, by key; a null value removes the key. */
    private final Map<String, RememberedCopy> changes = new LinkedHashMap<>();

    /** A copy read back from the topic: recorded already. */
    void restored(RememberedCopy copy) {
        recorded.put(copy.key(), copy);
    }

    void keep(RememberedCopy copy) {
        if (!copy.equals(recorded.put(copy.key(), copy))) {
            changes.put(copy.key(), copy);
        }
    }

    void forget(String key) {
        if (recorded.remove(key) != null) {
            changes.put(key, null);
        }
    }

    /** The changes since the last call, in order, each key's last; a null value removes the key. */
    Map<String, RememberedCopy> drain() {
        Map<String, RememberedCopy> drained = new LinkedHashMap<>(changes);
        changes.clear();
        return drained;
    }
}
