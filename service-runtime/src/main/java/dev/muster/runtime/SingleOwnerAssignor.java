package dev.muster.runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Gives every partition of every subscribed topic to one member of the consumer group, the one that
 * already owns them if it is still there. For a service whose decision is global (quota admission): two
 * members splitting the partitions would each decide on half the fleet. The other members are hot standbys;
 * when the owner leaves, the group rebalances and one of them takes everything over.
 * <p>
 * Under the eager protocol every member gives up its partitions before it joins again, so a subscription's owned
 * partitions are empty; each member therefore says in its subscription's user data the group generation in which
 * it last owned them (-1 if never), and the newest owner keeps them. One that lost its partitions without knowing
 * (its session expired) claims an older generation than the member that took over, and does not get them back.
 * <p>
 * A member also says which transactional ids it writes with ({@value #TRANSACTIONAL_IDS}, comma-separated), and every
 * member is told the owner's. A standby that takes over fences the ids of the owner it knew ({@link PredecessorFence}),
 * so that what a killed owner left open in its transactions is aborted at once rather than when it times out.
 * Set it with {@code partition.assignment.strategy} (classic group protocol).
 */
public final class SingleOwnerAssignor implements ConsumerPartitionAssignor, Configurable {

    public static final String NAME = "muster-single-owner";
    /** The consumer setting naming the transactional ids this member's producers use; none by default. */
    public static final String TRANSACTIONAL_IDS = "muster.owner.transactional-ids";
    private static final int NEVER_OWNED = -1;
    /**
     * The most ids a member fences on a takeover: a service writes with one or two. Each may block the consumer's thread for
     * a while if the broker is slow, so a member that said it writes with hundreds does not hold the takeover up for them.
     */
    static final int MAX_FENCED = 4;

    private final Function<Map<String, ?>, PredecessorFence> fences;
    private PredecessorFence fence;
    /** The transactional ids this member writes with. */
    private Set<String> transactionalIds = Set.of();
    /** The generation in which this consumer was last given the partitions; one instance per consumer. */
    private volatile int ownedInGeneration = NEVER_OWNED;
    /** The transactional ids of the owner as of the last assignment, this member's own once it owns the partitions. */
    private volatile Set<String> ownerTransactionalIds = Set.of();

    /** The one Kafka instantiates. */
    public SingleOwnerAssignor() {
        this(PredecessorFence::new);
    }

    /** @param fences makes the fence from the consumer's settings */
    SingleOwnerAssignor(Function<Map<String, ?>, PredecessorFence> fences) {
        this.fences = fences;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        Object ids = configs.get(TRANSACTIONAL_IDS);
        transactionalIds = ids == null ? Set.of() : parseIds(ids.toString());
        fence = transactionalIds.isEmpty() ? null : fences.apply(configs);
    }

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        byte[] ids = String.join(",", transactionalIds).getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(Integer.BYTES + ids.length).putInt(ownedInGeneration).put(ids).flip();
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        Set<String> predecessor = ownerTransactionalIds;
        ownerTransactionalIds = assignment.userData() == null ? Set.of()
                : parseIds(StandardCharsets.UTF_8.decode(assignment.userData().duplicate()).toString());
        if (assignment.partitions().isEmpty()) {
            return;
        }
        ownedInGeneration = metadata == null ? 0 : metadata.generationId();
        Set<String> others = new LinkedHashSet<>(predecessor);
        others.removeAll(transactionalIds);
        // A restarted owner that kept its ids fenced them itself; one that never saw another owner has no one to fence.
        if (fence != null && !others.isEmpty()) {
            fence.fence(others.stream().limit(MAX_FENCED).toList());
        }
    }

    private static Set<String> parseIds(String ids) {
        Set<String> parsed = new LinkedHashSet<>();
        Arrays.stream(ids.split(",")).map(String::strip).filter(id -> !id.isEmpty()).forEach(parsed::add);
        return Set.copyOf(parsed);
    }

    /** The generation a member says it last owned the partitions in: from its owned partitions or its user data. */
    private static int ownedIn(Subscription subscription) {
        if (!subscription.ownedPartitions().isEmpty()) {
            return Integer.MAX_VALUE;
        }
        ByteBuffer data = subscription.userData();
        return data == null || data.remaining() < Integer.BYTES ? NEVER_OWNED : data.getInt(data.position());
    }

    /** The transactional ids a member says it writes with, after the generation in its user data. */
    private static ByteBuffer transactionalIdsOf(Subscription subscription) {
        ByteBuffer data = subscription.userData();
        if (data == null || data.remaining() <= Integer.BYTES) {
            return null;
        }
        ByteBuffer ids = data.duplicate();
        ids.position(ids.position() + Integer.BYTES);
        return ids.slice();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> members = groupSubscription.groupSubscription();
        // The newest owner; among equals (no one ever owned them), the first member by id.
        String owner = members.entrySet().stream()
                .min(Comparator.<Map.Entry<String, Subscription>>comparingInt(member -> -ownedIn(member.getValue()))
                        .thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey)
                .orElseThrow();
        Set<String> topics = new TreeSet<>();
        members.values().forEach(subscription -> topics.addAll(subscription.topics()));
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = metadata.partitionsForTopic(topic);
            if (infos != null) {
                infos.forEach(info -> partitions.add(new TopicPartition(topic, info.partition())));
            }
        }
        ByteBuffer ownerIds = transactionalIdsOf(members.get(owner));
        Map<String, Assignment> assignments = new HashMap<>();
        members.keySet().forEach(member -> assignments.put(member, new Assignment(member.equals(owner) ? partitions : List.of(),
                ownerIds == null ? null : ownerIds.duplicate())));
        return new GroupAssignment(assignments);
    }
}
