package dev.muster.statussync.core.mirror;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The pods of Muster's copies as last observed, by member and by the job they belong to: every pod change asks for the
 * pods of its job, which the index keeps to that job's own rather than a scan of the member.
 */
final class CopyPods {

    private final Map<String, Map<String, MemberPod>> byCluster = new TreeMap<>();
    private final Map<MemberJobName, Map<String, MemberPod>> byJob = new HashMap<>();

    void observed(MemberPod pod) {
        MemberPod previous = byCluster.computeIfAbsent(pod.cluster(), cluster -> new LinkedHashMap<>()).put(pod.key(), pod);
        if (previous != null) {
            unindex(previous);
        }
        byJob.computeIfAbsent(MemberJobName.of(pod), name -> new LinkedHashMap<>()).put(pod.key(), pod);
    }

    /** The pod gone, if it was known. */
    Optional<MemberPod> gone(String cluster, String namespace, String name) {
        MemberPod gone = byCluster.getOrDefault(cluster, Map.of()).remove(namespace + "/" + name);
        if (gone != null) {
            unindex(gone);
        }
        return Optional.ofNullable(gone);
    }

    /** Every pod of a member that left the fleet is forgotten. */
    void clusterRemoved(String cluster) {
        Map<String, MemberPod> gone = byCluster.remove(cluster);
        if (gone != null) {
            gone.values().forEach(this::unindex);
        }
    }

    List<MemberPod> of(MemberJobName job) {
        return List.copyOf(byJob.getOrDefault(job, Map.of()).values());
    }

    List<MemberPod> all() {
        return byCluster.values().stream().flatMap(byKey -> byKey.values().stream()).toList();
    }

    private void unindex(MemberPod pod) {
        Map<String, MemberPod> ofJob = byJob.get(MemberJobName.of(pod));
        if (ofJob != null && ofJob.remove(pod.key()) != null && ofJob.isEmpty()) {
            byJob.remove(MemberJobName.of(pod));
        }
    }
}
