package dev.muster.simulator.scheduling;

import java.util.HashMap;
import java.util.Map;

import dev.muster.model.inventory.PodSnapshot;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * Each pod's {@link PodSnapshot}, worked out once per version of the pod. A scheduling pass counts every bound pod
 * against its node; summing each pod's requests from its spec again on every pass made a pass cost more the more
 * pods ran, and a busy member runs thousands. Used by one pass at a time.
 */
final class PodSnapshotMemo {

    private record Memo(String resourceVersion, PodSnapshot snapshot) {
    }

    private Map<String, Memo> previousPass = new HashMap<>();
    private Map<String, Memo> thisPass = new HashMap<>();

    /** The pod's snapshot, as of this version of it. */
    PodSnapshot of(Pod pod) {
        String uid = pod.getMetadata().getUid();
        String version = pod.getMetadata().getResourceVersion();
        if (uid == null || version == null) {
            return PodSnapshot.of(pod);
        }
        Memo memo = previousPass.get(uid);
        if (memo == null || !version.equals(memo.resourceVersion())) {
            memo = new Memo(version, PodSnapshot.of(pod));
        }
        thisPass.put(uid, memo);
        return memo.snapshot();
    }

    /** The pass is over: the next keeps the snapshots of the pods this one read, so those of deleted pods go. */
    void passOver() {
        if (!thisPass.isEmpty()) {
            previousPass = thisPass;
            thisPass = new HashMap<>(previousPass.size() * 2);
        }
    }

    /** How many pods have a snapshot kept for the next pass. */
    int size() {
        return previousPass.size();
    }
}
