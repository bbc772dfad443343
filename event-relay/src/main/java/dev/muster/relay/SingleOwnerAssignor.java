package dev.muster.relay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Gives every partition of every subscribed topic to one member of the consumer group, the one that
 * already owns them if it is still there. For a service whose decision is global (quota admission): two
 * members splitting the partitions would each decide on half the fleet. The other members are hot standbys;
 * when the owner leaves, the group rebalances and one of them takes everything over.
 * Set it with {@code partition.assignment.strategy} (classic group protocol).
 */
public final class SingleOwnerAssignor implements ConsumerPartitionAssignor {

    public static final String NAME = "muster-single-owner";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public GroupAssignment assign(Cluster metadata, GroupSubscription groupSubscription) {
        Map<String, Subscription> members = groupSubscription.groupSubscription();
        String owner = members.entrySet().stream()
                .filter(member -> !member.getValue().ownedPartitions().isEmpty())
                .map(Map.Entry::getKey)
                .min(Comparator.naturalOrder())
                .orElseGet(() -> new TreeSet<>(members.keySet()).first());
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
