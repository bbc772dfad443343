package dev.muster.gangfit;

import java.util.Arrays;

/**
 * Node positions grouped by one free amount in fixed point, amounts ascending, each amount's positions in name
 * order: plain arrays, so a search finds its first sufficient amount by binary search and walks up without
 * allocating an iterator per pod.
 */
final class FixedBuckets {

    private final long[] amounts;
    private final int[][] positions;

    private FixedBuckets(long[] amounts, int[][] positions) {
        this.amounts = amounts;
        this.positions = positions;
    }

    /**
     * The positions grouped by their amount of one resource.
     *
     * @param amounts   each position's amounts in fixed point
     * @param resource  which amount to group by
     * @param positions the positions to group, ascending
     */
    static FixedBuckets of(long[][] amounts, int resource, int[] positions) {
        long[] distinct = new long[positions.length];
        for (int i = 0; i < positions.length; i++) {
            distinct[i] = amounts[positions[i]][resource];
        }
        Arrays.sort(distinct);
        int size = 0;
        for (int i = 0; i < distinct.length; i++) {
            if (i == 0 || distinct[i] != distinct[i - 1]) {
                distinct[size++] = distinct[i];
            }
        }
        long[] bucketAmounts = Arrays.copyOf(distinct, size);
        int[] counts = new int[size];
        for (int position : positions) {
            counts[Arrays.binarySearch(bucketAmounts, amounts[position][resource])]++;
        }
        int[][] buckets = new int[size][];
        for (int bucket = 0; bucket < size; bucket++) {
            buckets[bucket] = new int[counts[bucket]];
            counts[bucket] = 0;
        }
        // Positions ascending, so each bucket's positions come out in name order.
        for (int position : positions) {
            int bucket = Arrays.binarySearch(bucketAmounts, amounts[position][resource]);
            buckets[bucket][counts[bucket]++] = position;
        }
        return new FixedBuckets(bucketAmounts, buckets);
    }

    /** How many amounts there are. */
    int size() {
        return amounts.length;
    }

    /** The first bucket whose amount is at least {@code amount}; {@link #size()} when none is. */
    int firstAtLeast(long amount) {
        int found = Arrays.binarySearch(amounts, amount);
        return found >= 0 ? found : -found - 1;
    }

    long amount(int bucket) {
        return amounts[bucket];
    }

    /** The positions with this bucket's amount, in name order; not to be changed. */
    int[] positions(int bucket) {
        return positions[bucket];
    }
}
