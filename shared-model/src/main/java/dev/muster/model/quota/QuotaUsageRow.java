package dev.muster.model.quota;

/**
 * One quota node's use of one resource, as {@code kubectl muster queues} prints it:
 * {@code NODE QUEUE WAITING RESOURCE USED MIN MAX}. Amounts are Kubernetes quantities; an empty min or max
 * means the node names none (nothing guaranteed, no limit).
 *
 * @param node    the node's path, e.g. {@code root/child-2}
 * @param queue   its Kube Queue {@code Queue}
 * @param waiting jobs waiting in the leaves of its subtree
 */
public record QuotaUsageRow(String node, String queue, int waiting, String resource, String used, String min, String max) {
}
