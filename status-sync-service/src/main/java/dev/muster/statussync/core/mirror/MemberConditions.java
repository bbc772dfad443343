package dev.muster.statussync.core.mirror;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/** What the mirror knows of each member: whether its API answers, which of its nodes are not Ready, whether it left the fleet. */
final class MemberConditions {

    private final Map<String, Boolean> reachable = new TreeMap<>();
    private final Map<String, Set<String>> notReadyNodes = new TreeMap<>();
    private final Set<String> removed = new HashSet<>();

    /** Whether the member's API answers; whether that changed. A member that answers is in the fleet again. */
    boolean reachability(String cluster, boolean isReachable) {
        if (isReachable) {
            removed.remove(cluster);
        }
        return !Objects.equals(reachable.put(cluster, isReachable), isReachable);
    }

    /** The member left the fleet: not watched any more, so taken for unreachable. */
    void removed(String cluster) {
        removed.add(cluster);
        notReadyNodes.remove(cluster);
        reachable.put(cluster, false);
    }

    /** A node's readiness; whether that changed. */
    boolean node(String cluster, String node, boolean ready) {
        Set<String> notReady = notReadyNodes.computeIfAbsent(cluster, name -> new HashSet<>());
        return ready ? notReady.remove(node) : notReady.add(node);
    }

    boolean isRemoved(String cluster) {
        return removed.contains(cluster);
    }

    /** Whether the member answers, as far as known: one not heard of yet is taken to. */
    boolean isReachable(String cluster) {
        return reachable.getOrDefault(cluster, true);
    }

    /** Whether the member is known not to answer. */
    boolean isKnownUnreachable(String cluster) {
        return Boolean.FALSE.equals(reachable.get(cluster));
    }

    Set<String> notReadyNodes(String cluster) {
        return notReadyNodes.getOrDefault(cluster, Set.of());
    }
}
