package dev.muster.placement.core.shard;

import java.nio.charset.StandardCharsets;

/**
 * How placement's member clusters and jobs are split over {@code shards} placement shards (see
 * {@code docs/placement-sharding.md}). A member belongs to the shard that rendezvous hashing of its name picks: the shard
 * with the highest weight for that name. Adding a shard therefore moves about one member in N, each to the new shard,
 * and leaves every other member where it was. A job starts at its home shard, picked from its UID; a shard none of
 * whose members fits the job offers it to the next shard in ring order, until every shard has been tried once.
 * <p>
 * The hashes are fixed functions of the names' UTF-8 bytes, so every instance, whatever its JVM, splits alike.
 */
public record ShardRing(int shards) {

    public ShardRing {
        if (shards < 1) {
            throw new IllegalArgumentException("a ring has at least one shard, not " + shards);
        }
    }

    /** One shard that owns every member: placement as a single instance. */
    public static ShardRing single() {
        return new ShardRing(1);
    }

    /** The shard that owns the member cluster. */
    public int ownerOf(String member) {
        long name = hash(member);
        int owner = 0;
        long highest = Long.MIN_VALUE;
        for (int shard = 0; shard < shards; shard++) {
            long weight = mix(name ^ mix(shard + 1L));
            // Ties (vanishingly rare) go to the lower shard id, the same on every instance.
            if (weight > highest) {
                highest = weight;
                owner = shard;
            }
        }
        return owner;
    }

    /** The shard that first tries to place the job, and where it waits when no shard's members fit it. */
    public int homeOf(String jobUid) {
        return (int) Long.remainderUnsigned(mix(hash(jobUid)), shards);
    }

    /** The shard a job goes to when none of this shard's members fits it. */
    public int next(int shard) {
        return (shard + 1) % shards;
    }

    /** FNV-1a over the UTF-8 bytes: stable across JVMs, unlike identity hashes, and cheap. */
    static long hash(String name) {
        long hash = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }

    /** SplitMix64's finalizer: spreads FNV's weak low bits over the whole word before weights are compared or reduced. */
    static long mix(long value) {
        long z = value + 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
