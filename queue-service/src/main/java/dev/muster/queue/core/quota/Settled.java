package dev.muster.queue.core.quota;

import java.time.Instant;

import dev.muster.model.resource.ResourceList;

/**
 * A queue whose every job its own leaf refused in the last evaluation, none starving, none in backoff,
 * none behind a strict head. Until the tree, the leaf's usage or the queue's jobs change, or the first of
 * them starves, an evaluation would say the same of each: so it passes over the queue, and a deep queue
 * behind a full leaf costs nothing per event.
 *
 * @param usedAtLeaf    the leaf's usage then, compared by identity: every change of usage makes a new list
 * @param firstStarving when the first of its jobs starts to starve
 */
record Settled(QuotaTree tree, ResourceList usedAtLeaf, Instant firstStarving) {

    boolean holds(QuotaTree currentTree, ResourceList currentUsedAtLeaf, Instant now) {
        return tree == currentTree && usedAtLeaf == currentUsedAtLeaf && (firstStarving == null || now.isBefore(firstStarving));
    }
}
