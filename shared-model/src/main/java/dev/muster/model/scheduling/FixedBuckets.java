package dev.muster.model.scheduling;

import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;

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

    static FixedBuckets of(NavigableMap<Long, List<Integer>> byAmount) {
        long[] amounts = new long[byAmount.size()];
        int[][] positions = new int[byAmount.size()][];
        int bucket = 0;
        for (var entry : byAmount.entrySet()) {
            amounts[bucket] = entry.getKey();
            positions[bucket] = entry.getValue().stream().mapToInt(Integer::intValue).toArray();
            bucket++;
        }
        return new FixedBuckets(amounts, positions);
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
