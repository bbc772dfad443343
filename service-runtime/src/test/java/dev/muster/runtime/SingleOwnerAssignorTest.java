package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class SingleOwnerAssignorTest {

    private static final Node BROKER = new Node(1, "localhost", 9092);
    private static final Cluster CLUSTER = new Cluster("c", List.of(BROKER), List.of(
            new PartitionInfo("submissions", 0, BROKER, null, null),
            new PartitionInfo("submissions", 1, BROKER, null, null),
            new PartitionInfo("submissions", 2, BROKER, null, null),
            new PartitionInfo("config", 0, BROKER, null, null)), Set.of(), Set.of());

    private final SingleOwnerAssignor assignor = new SingleOwnerAssignor();

    private static Subscription subscription(List<TopicPartition> owned) {
        return new Subscription(List.of("submissions", "config"), null, owned);
    }

    /** A member's subscription under the eager protocol: nothing owned, and the generation it last owned them in. */
    private static Subscription ownedIn(int generation) {
        SingleOwnerAssignor member = new SingleOwnerAssignor();
        if (generation >= 0) {
            member.onAssignment(new org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment(List.of(new TopicPartition("config", 0))),
                    new org.apache.kafka.clients.consumer.ConsumerGroupMetadata("group", generation, "member", java.util.Optional.empty()));
        }
        return new Subscription(List.of("submissions", "config"), member.subscriptionUserData(Set.of("submissions", "config")), List.of());
    }

    @Test
    void underTheEagerProtocolTheOwnerKeepsThePartitionsWhenAMemberWithALowerIdJoins() {
        GroupAssignment assignment = assignor.assign(CLUSTER, new GroupSubscription(Map.of(
                "member-a", ownedIn(-1), "member-z", ownedIn(4))));

        assertThat(assignment.groupAssignment().get("member-z").partitions()).hasSize(4);
        assertThat(assignment.groupAssignment().get("member-a").partitions()).isEmpty();
    }

    @Test
    void anOwnerThatLostThePartitionsUnawaresDoesNotTakeThemBackFromTheMemberThatTookOver() {
        GroupAssignment assignment = assignor.assign(CLUSTER, new GroupSubscription(Map.of(
                "member-a", ownedIn(3), "member-z", ownedIn(5))));

        assertThat(assignment.groupAssignment().get("member-z").partitions()).hasSize(4);
        assertThat(assignment.groupAssignment().get("member-a").partitions()).isEmpty();
    }

    @Test
    void everyPartitionGoesToOneMemberAndTheOthersStandBy() {
        GroupAssignment assignment = assignor.assign(CLUSTER, new GroupSubscription(Map.of(
                "member-b", subscription(List.of()), "member-a", subscription(List.of()))));

        assertThat(assignment.groupAssignment().get("member-a").partitions()).hasSize(4)
                .contains(new TopicPartition("submissions", 2), new TopicPartition("config", 0));
        assertThat(assignment.groupAssignment().get("member-b").partitions()).isEmpty();
    }

    @Test
    void theMemberThatOwnsThePartitionsKeepsThemWhenAnotherJoins() {
        GroupAssignment assignment = assignor.assign(CLUSTER, new GroupSubscription(Map.of(
                "member-a", subscription(List.of()),
                "member-z", subscription(List.of(new TopicPartition("submissions", 0))))));

        assertThat(assignment.groupAssignment().get("member-z").partitions()).hasSize(4);
        assertThat(assignment.groupAssignment().get("member-a").partitions()).isEmpty();
    }
}
