package dev.muster.placement.core.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/** What sharding placement promises: every member has one owner, growth moves few members, a job's ring visits every shard. */
class ShardRingProperties {

    @Property(tries = 200)
    void aMemberHasOneOwnerWhicheverInstanceAsks(@ForAll @AlphaChars @NumericChars @StringLength(min = 1, max = 40) String member,
                                                 @ForAll @IntRange(min = 1, max = 16) int shards) {
        int owner = new ShardRing(shards).ownerOf(member);

        assertThat(owner).isBetween(0, shards - 1);
        assertThat(new ShardRing(shards).ownerOf(new String(member.toCharArray()))).isEqualTo(owner);
    }

    @Property(tries = 50)
    void addingAShardMovesMembersOnlyToTheNewShard(@ForAll @IntRange(min = 1, max = 12) int shards) {
        ShardRing before = new ShardRing(shards);
        ShardRing after = new ShardRing(shards + 1);

        for (String member : members(500)) {
            int owner = after.ownerOf(member);
            if (owner != before.ownerOf(member)) {
                assertThat(owner).as("%s moved, and not to the new shard", member).isEqualTo(shards);
            }
        }
    }

    @Test
    void membersAndJobsSpreadEvenlyOverTheShards() {
        for (int shards : List.of(2, 4, 8)) {
            ShardRing ring = new ShardRing(shards);
            int[] owned = new int[shards];
            int[] homes = new int[shards];
            List<String> members = members(4_000);
            members.forEach(member -> owned[ring.ownerOf(member)]++);
            IntStream.range(0, 4_000).forEach(job -> homes[ring.homeOf("2f1c9a7e-0000-4000-8000-" + String.format("%012d", job))]++);
            // 4,000 draws over N shards: a fair split is within a fifth of 4,000 / N with room to spare.
            for (int shard = 0; shard < shards; shard++) {
                assertThat(owned[shard]).as("members of shard %d of %d", shard, shards).isBetween(4_000 / shards * 4 / 5, 4_000 / shards * 6 / 5);
                assertThat(homes[shard]).as("job homes at shard %d of %d", shard, shards).isBetween(4_000 / shards * 4 / 5, 4_000 / shards * 6 / 5);
            }
        }
    }

    @Test
    void addingAShardMovesAboutOneMemberInN() {
        List<String> members = members(4_000);
        ShardRing three = new ShardRing(3);
        ShardRing four = new ShardRing(4);

        long moved = members.stream().filter(member -> three.ownerOf(member) != four.ownerOf(member)).count();

        assertThat(moved).isBetween(4_000L / 4 * 4 / 5, 4_000L / 4 * 6 / 5);
    }

    @Property(tries = 100)
    void aJobOfferedRoundTheRingFromHomeIsTriedByEveryShardOnce(@ForAll @StringLength(min = 1, max = 36) String uid,
                                                                @ForAll @IntRange(min = 1, max = 16) int shards) {
        ShardRing ring = new ShardRing(shards);
        Set<Integer> tried = new HashSet<>();
        int shard = ring.homeOf(uid);

        for (int hop = 0; hop < shards; hop++) {
            assertThat(tried.add(shard)).as("shard %d tried twice", shard).isTrue();
            shard = ring.next(shard);
        }

        assertThat(tried).hasSize(shards);
        assertThat(shard).as("back home after a full ring").isEqualTo(ring.homeOf(uid));
    }

    @Test
    void oneShardOwnsEverythingAndARingNeedsAShard() {
        assertThat(ShardRing.single().ownerOf("gpu-east")).isZero();
        assertThat(ShardRing.single().homeOf("any")).isZero();
        assertThatThrownBy(() -> new ShardRing(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one shard");
    }

    @Test
    void theSplitIsAFixedFunctionOfTheNames() {
        // Pinned, so that a change to the hash (which would move members between running instances) cannot pass unnoticed.
        ShardRing ring = new ShardRing(4);
        assertThat(List.of(ring.ownerOf("member-0"), ring.ownerOf("member-1"), ring.ownerOf("member-2"), ring.ownerOf("gpu-east"),
                ring.homeOf("job-a"), ring.homeOf("job-b"))).containsExactly(3, 3, 1, 0, 1, 2);
    }

    private static List<String> members(int count) {
        return IntStream.range(0, count).mapToObj(index -> "member-" + index).toList();
    }
}
