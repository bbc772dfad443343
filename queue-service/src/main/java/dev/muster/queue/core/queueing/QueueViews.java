package dev.muster.queue.core.queueing;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.muster.model.queue.JobQueueView;
import dev.muster.model.quota.QuotaUsageRow;
import dev.muster.queue.core.queueing.QueueState.TrackedJob;
import dev.muster.queue.core.quota.JobStanding;
import dev.muster.queue.core.quota.QuotaAdmission;
import dev.muster.queue.core.quota.QuotaJob;
import dev.muster.queue.core.quota.QuotaTree;

/** The queue's state as people read it: one job's standing ({@code kubectl muster explain}), each node's usage ({@code queues}). */
final class QueueViews {

    private QueueViews() {
    }

    /** Where one job stands: its state, queue and place in it, and why it waits, with the numbers of now. */
    static JobQueueView job(TrackedJob tracked, QuotaAdmission quota) {
        JobStanding standing = tracked.standing();
        String state;
        String queueName = null;
        int position = 0;
        if (tracked.policy() == null) {
            state = "NoPolicy";
        } else if (standing != null && standing.withdrawn()) {
            state = "Stopping";
        } else if (standing != null && standing.preemptedBy() != null) {
            state = "Preempting";
        } else if (standing != null && standing.admitted()) {
            state = "Admitted";
        } else {
            state = "Queuing";
        }
        if (standing != null && standing.leaf() != null) {
            queueName = quota.tree().flatMap(tree -> tree.node(standing.leaf())).map(QuotaTree.Node::queue).orElse(null);
            if (!standing.admitted()) {
                List<QuotaJob> waiting = quota.queue(standing.leaf());
                for (int i = 0; i < waiting.size(); i++) {
                    if (waiting.get(i).uid().equals(tracked.ref().uid())) {
                        position = i + 1;
                    }
                }
            }
        }
        return new JobQueueView(tracked.ref().namespace(), tracked.ref().name(), tracked.ref().uid(), state,
                queueName, position, standing == null ? (tracked.policy() == null ? "NoPolicy" : null) : standing.reason(),
                standing == null ? (tracked.policy() == null ? "no PropagationPolicy selects this job yet" : null)
                        : quota.currentMessage(tracked.ref().uid()).orElse(standing.message()),
                tracked.demand().toString(), tracked.job().job(), tracked.policy(), null, null);
    }

    /**
     * Each quota node's usage, with when the first job waiting under it is expected to start, as the estimates were last
     * worked out.
     */
    static List<QuotaUsageRow> usage(QuotaAdmission quota, StartTimes startTimes) {
        List<QuotaUsageRow> rows = quota.usageReport();
        Optional<QuotaTree> tree = quota.tree();
        if (tree.isEmpty()) {
            return rows;
        }
        Map<String, Instant> nextStart = new HashMap<>();
        for (QuotaTree.Node node : tree.get().nodes()) {
            Instant first = node.isLeaf() ? quota.queue(node.name()).stream().map(job -> startTimes.estimatedStart(job.uid()))
                    .filter(Objects::nonNull).min(Instant::compareTo).orElse(null) : null;
            if (first != null) {
                for (QuotaTree.Node above : tree.get().pathToRoot(node)) {
                    nextStart.merge(above.pathText(), first, (a, b) -> a.isBefore(b) ? a : b);
                }
            }
        }
        return rows.stream().map(row -> row.withNextStart(nextStart.get(row.node()))).toList();
    }
}
