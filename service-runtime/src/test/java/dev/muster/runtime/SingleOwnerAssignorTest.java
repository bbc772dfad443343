package dev.muster.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
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

    /** The ids each fence was asked to fence, in order. */
    private final List<Collection<String>> fenced = new ArrayList<>();

    private SingleOwnerAssignor member(String transactionalIds) {
        SingleOwnerAssignor member = new SingleOwnerAssignor(configs -> new PredecessorFence(configs) {
            @Override
            public void fence(Collection<String> transactionalIds) {
                fenced.add(List.copyOf(transactionalIds));
            }
        });
        member.configure(Map.of(SingleOwnerAssignor.TRANSACTIONAL_IDS, transactionalIds, "bootstrap.servers", "localhost:9092"));
        return member;
    }

    private static Subscription subscriptionOf(SingleOwnerAssignor member) {
        return new Subscription(List.of("submissions", "config"), member.subscriptionUserData(Set.of("submissions", "config")), List.of());
    }

    /** One generation: the leader's assignment, each member told its share. */
    private static void rebalance(int generation, Map<String, SingleOwnerAssignor> members) {
        Map<String, Subscription> subscriptions = new TreeMap<>();
        members.forEach((id, member) -> subscriptions.put(id, subscriptionOf(member)));
        GroupAssignment assignment = members.values().iterator().next().assign(CLUSTER, new GroupSubscription(subscriptions));
        members.forEach((id, member) -> member.onAssignment(assignment.groupAssignment().get(id),
                new ConsumerGroupMetadata("group", generation, id, Optional.empty())));
    }

    @Test
    void aStandbyThatTakesOverFencesTheTransactionalIdsOfTheOwnerItKnew() {
        SingleOwnerAssignor owner = member("placement-a");
        SingleOwnerAssignor standby = member("placement-b, placement-b-gate");
        rebalance(1, Map.of("member-a", owner));
        rebalance(2, Map.of("member-a", owner, "member-b", standby));
        assertThat(fenced).as("no one has taken anything over yet").isEmpty();

        // The owner dies; the standby alone in the group.
        rebalance(3, Map.of("member-b", standby));

        assertThat(fenced).containsExactly(List.of("placement-a"));
    }

    @Test
    void anOwnerThatKeepsItsPartitionsOrComesBackWithItsOwnIdsFencesNoOne() {
        SingleOwnerAssignor owner = member("queue-0,queue-gate-0");
        rebalance(1, Map.of("member-a", owner));
        SingleOwnerAssignor standby = member("queue-1");
        rebalance(2, Map.of("member-a", owner, "member-b", standby));
        rebalance(3, Map.of("member-a", owner, "member-b", standby));

        // Restarted with the same instance id: its producers fenced their predecessors when they started.
        SingleOwnerAssignor restarted = member("queue-0,queue-gate-0");
        rebalance(4, Map.of("member-a", restarted));

        assertThat(fenced).isEmpty();
    }

    @Test
    void aStandbyThatTakesOverFromAnOwnerWithoutTransactionsFencesNothing() {
        SingleOwnerAssignor owner = new SingleOwnerAssignor();
        owner.configure(Map.of());
        SingleOwnerAssignor standby = member("status-sync-b");
        rebalance(1, Map.of("member-a", owner, "member-b", standby));
        rebalance(2, Map.of("member-b", standby));

        assertThat(fenced).isEmpty();
    }

    @Test
    void anAssignmentWhoseUserDataIsGarbageFencesAtMostAFewIdsAndStillHandsThePartitionsOver() {
        SingleOwnerAssignor standby = member("placement-b");
        byte[] garbage = new byte[4096];
        new java.util.Random(7).nextBytes(garbage);
        garbage[100] = ',';
        garbage[200] = ',';
        String many = String.join(",", java.util.stream.IntStream.range(0, 500).mapToObj(i -> "id-" + i).toList());
        standby.onAssignment(new Assignment(List.of(), java.nio.ByteBuffer.wrap(garbage)), new ConsumerGroupMetadata("group", 1, "b", Optional.empty()));
        standby.onAssignment(new Assignment(List.of(), java.nio.ByteBuffer.wrap(many.getBytes(java.nio.charset.StandardCharsets.UTF_8))),
                new ConsumerGroupMetadata("group", 2, "b", Optional.empty()));

        standby.onAssignment(new Assignment(List.of(new TopicPartition("config", 0))), new ConsumerGroupMetadata("group", 3, "b", Optional.empty()));

        assertThat(fenced).singleElement().satisfies(ids -> assertThat(ids).hasSize(SingleOwnerAssignor.MAX_FENCED));
        assertThat(standby.subscriptionUserData(Set.of("config")).getInt(0)).as("the generation it owns the partitions in").isEqualTo(3);
    }
}
