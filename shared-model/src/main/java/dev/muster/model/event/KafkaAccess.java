package dev.muster.model.event;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What one Muster service does on Kafka, and so all a secured cluster should let its user do: the topics it reads
 * and writes, the consumer groups and transactional ids it uses (each a prefix: a service runs several instances, and
 * the queue service a second group for its {@linkplain Topics#inboxOf submitter inboxes}). ACLs, and Strimzi's
 * {@code KafkaUser}s, are made from these; nothing else writes Muster's internal topics.
 *
 * @param service              the service, and the default name of its Kafka user
 * @param reads                the topics it consumes, or reads back its state from
 * @param readsInboxes         whether it also reads every submitter's inbox topic ({@link Topics#INBOX_PREFIX})
 * @param writes               the topics it produces to
 * @param groupPrefix          the prefix of its consumer groups
 * @param transactionalIdPrefix the prefix of its transactional ids; empty when it uses no transaction
 */
public record KafkaAccess(String service, Set<String> reads, boolean readsInboxes, Set<String> writes, String groupPrefix,
                          String transactionalIdPrefix) {

    public static final KafkaAccess QUEUE = new KafkaAccess("muster-queue-service",
            Set.of(Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.MEMBER_STATUS, Topics.PLACEMENTS, Topics.QUEUE_STATE), true,
            // Its fleet ingress and its submission gate write the submissions topic; the ingress and its ticker the config topic.
            Set.of(Topics.ADMISSIONS, Topics.QUEUE_STATE, Topics.SUBMISSIONS, Topics.FLEET_CONFIG, Topics.DEAD_LETTER),
            "muster-queue-service", "muster-queue-service-");

    public static final KafkaAccess PLACEMENT = new KafkaAccess("muster-placement-service",
            Set.of(Topics.ADMISSIONS, Topics.INVENTORY, Topics.SUBMISSIONS, Topics.MEMBER_STATUS, Topics.PLACEMENT_RESULTS, Topics.PLACEMENT_STATE),
            false, Set.of(Topics.PLACEMENTS, Topics.PLACEMENT_STATE, Topics.PLACEMENT_RESULTS, Topics.DEAD_LETTER),
            "muster-placement-service", "muster-placement-service-");

    /** Status sync has no transaction: see the architecture document, "Its loop, and why it has no transaction". */
    public static final KafkaAccess STATUS_SYNC = new KafkaAccess("muster-status-sync-service",
            // The inventory it writes is read back once when it becomes the active instance (what was reported before).
            Set.of(Topics.SUBMISSIONS, Topics.ADMISSIONS, Topics.PLACEMENTS, Topics.MEMBER_STATUS, Topics.STATUS_SYNC_STATE, Topics.INVENTORY), false,
            Set.of(Topics.MEMBER_STATUS, Topics.INVENTORY, Topics.STATUS_SYNC_STATE, Topics.DEAD_LETTER),
            "muster-status-sync-service", "");

    /** The three services. */
    public static final List<KafkaAccess> SERVICES = List.of(QUEUE, PLACEMENT, STATUS_SYNC);

    public KafkaAccess {
        Objects.requireNonNull(service, "service");
        reads = Set.copyOf(reads);
        writes = Set.copyOf(writes);
        Objects.requireNonNull(groupPrefix, "groupPrefix");
        Objects.requireNonNull(transactionalIdPrefix, "transactionalIdPrefix");
    }

    public boolean transactional() {
        return !transactionalIdPrefix.isEmpty();
    }
}
