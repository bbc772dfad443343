package dev.muster.model.quota;

/**
 * One quota node's use of one resource, as {@code kubectl muster queues} prints it:
 * {@code NODE QUEUE WAITING ETA RESOURCE USED MIN MAX WEIGHT SHARE FAIR}. Amounts are Kubernetes quantities; an empty min or
 * max means the node names none (nothing guaranteed, no limit).
 *
 * @param node      the node's path, e.g. {@code root/child-2}
 * @param queue     its Kube Queue {@code Queue}
 * @param waiting   jobs waiting in the leaves of its subtree
 * @param weight    its fair-sharing weight; empty for the root and when fair sharing is disabled
 * @param share     its dominant share: the most, over the resources, of its use above its min as a part of its parent's
 *                  capacity, e.g. {@code 37.5%}; empty for the root
 * @param fairShare its weight's part of its own and its siblings' weights together, e.g. {@code 50%}: the share fair sharing
 *                  steers it towards while every sibling wants more; empty for the root and when fair sharing is disabled
 * @param nextStart when the first of the jobs waiting under it is expected to start, were nothing new to arrive; null when
 *                  none waits or none has an estimate
 */
public record QuotaUsageRow(String node, String queue, int waiting, String resource, String used, String min, String max, String weight,
                            String share, String fairShare, java.time.Instant nextStart) {

    public QuotaUsageRow withNextStart(java.time.Instant start) {
        return new QuotaUsageRow(node, queue, waiting, resource, used, min, max, weight, share, fairShare, start);
    }
}
