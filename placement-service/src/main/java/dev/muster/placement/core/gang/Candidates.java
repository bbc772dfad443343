package dev.muster.placement.core.gang;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import dev.muster.model.inventory.MemberSnapshot;
import dev.muster.model.label.LabelSelectors;
import dev.muster.model.policy.PropagationPolicySpec.ClusterAffinity;
import dev.muster.placement.core.inventory.ClusterInventory;

/** Which member clusters a job may be placed on at all, before fit is considered. */
final class Candidates {

    private Candidates() {
    }

    /** Whether the policy's {@code clusterAffinity} lets the job go to the cluster at all. */
    static boolean matchesAffinity(ClusterInventory cluster, ClusterAffinity affinity) {
        if (affinity == null) {
            return true;
        }
        if (affinity.clusterNames() != null && !affinity.clusterNames().isEmpty() && !affinity.clusterNames().contains(cluster.cluster())) {
            return false;
        }
        return affinity.labelSelector() == null
                || LabelSelectors.matches(affinity.labelSelector(), cluster.member().map(MemberSnapshot::labels).orElse(Map.of()));
    }

    /**
     * Why the cluster is not a candidate for the job, or empty when it is: it must answer and have a node
     * that takes pods, match the policy's {@code clusterAffinity}, and not be excluded by a recent failover.
     */
    static Optional<String> whyNot(ClusterInventory cluster, ClusterAffinity affinity, Map<String, Instant> excludedUntil, Instant now) {
        String name = cluster.cluster();
        if (affinity != null && affinity.clusterNames() != null && !affinity.clusterNames().isEmpty()
                && !affinity.clusterNames().contains(name)) {
            return Optional.of("not in clusterAffinity.clusterNames " + affinity.clusterNames());
        }
        Optional<MemberSnapshot> member = cluster.member();
        if (affinity != null && affinity.labelSelector() != null
                && !LabelSelectors.matches(affinity.labelSelector(), member.map(MemberSnapshot::labels).orElse(Map.of()))) {
            return Optional.of("cluster labels " + member.map(MemberSnapshot::labels).orElse(Map.of()) + " do not match clusterAffinity.labelSelector");
        }
        Instant until = excludedUntil.get(name);
        if (until != null && until.isAfter(now)) {
            return Optional.of("excluded after a failover of this job until " + until);
        }
        if (member.isEmpty()) {
            return Optional.of("the member has not reported its state yet");
        }
        if (!member.get().reachable()) {
            return Optional.of("the member's API is unreachable" + (member.get().lastSeenHealthy() == null ? ""
                    : " (last seen healthy " + member.get().lastSeenHealthy() + ")"));
        }
        if (!cluster.isReady()) {
            return Optional.of("no Ready, schedulable node");
        }
        return Optional.empty();
    }
}
