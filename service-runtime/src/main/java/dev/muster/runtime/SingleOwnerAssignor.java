package dev.muster.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
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
 * Set it with {@code partition.assignment.strategy} (classic group protocol).
 */
public final class SingleOwnerAssignor implements ConsumerPartitionAssignor {

    public static final String NAME = "muster-single-owner";
    private static final int NEVER_OWNED = -1;

    /** The generation in which this consumer was last given the partitions; one instance per consumer. */
    private volatile int ownedInGeneration = NEVER_OWNED;

    @Override
    public ByteBuffer subscriptionUserData(Set<String> topics) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(0, ownedInGeneration);
    }

    @Override
    public void onAssignment(Assignment assignment, ConsumerGroupMetadata metadata) {
        if (!assignment.partitions().isEmpty()) {
            ownedInGeneration = metadata == null ? 0 : metadata.generationId();
        }
    }

    /** The generation a member says it last owned the partitions in: from its owned partitions or its user data. */
    private static int ownedIn(Subscription subscription) {
        if (!subscription.ownedPartitions().isEmpty()) {
            return Integer.MAX_VALUE;
        }
        ByteBuffer data = subscription.userData();
        return data == null || data.remaining() < Integer.BYTES ? NEVER_OWNED : data.getInt(data.position());
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
        Map<String, Assignment> assignments = new HashMap<>();
        members.keySet().forEach(member -> assignments.put(member, new Assignment(member.equals(owner) ? partitions : List.of())));
        return new GroupAssignment(assignments);
    }
}
