package dev.muster.gangfit;

import java.math.BigDecimal;
import java.util.List;

import dev.muster.model.resource.ResourceList;
import dev.muster.model.resource.ResourceNames;

/**
 * The resources gang packing compares most, as exact fixed-point numbers (thousandths, in a {@code long}), so
 * that the search compares and subtracts without allocating. An amount that is not a whole number of
 * thousandths, or too large, has no fixed-point form; packing then keeps to exact decimals.
 */
final class FixedPoint {

    /** The resources in fixed point, in this order. */
    static final List<String> RESOURCES = List.of(ResourceNames.CPU, ResourceNames.MEMORY, ResourceNames.GPU, ResourceNames.PODS);
    static final int CPU = 0;
    static final int GPU = 2;

    private FixedPoint() {
    }

    /** The list's amounts of {@link #RESOURCES} in thousandths; null when one has no fixed-point form. */
    static long[] of(ResourceList resources) {
        long[] amounts = new long[RESOURCES.size()];
        for (int i = 0; i < amounts.length; i++) {
            Long amount = thousandths(resources.amount(RESOURCES.get(i)));
            if (amount == null) {
                return null;
            }
            amounts[i] = amount;
        }
        return amounts;
    }

    /** A pod's request in thousandths; null when it asks for anything else, or for an amount with no fixed-point form. */
    static long[] ofRequest(ResourceList request) {
        for (String name : request.names()) {
            if (!RESOURCES.contains(name) && request.amount(name).signum() != 0) {
                return null;
            }
        }
        return of(request);
    }

    private static Long thousandths(BigDecimal amount) {
        try {
            return amount.movePointRight(3).longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** Whether {@code free} covers every positive amount of {@code need}. */
    static boolean covers(long[] free, long[] need) {
        for (int i = 0; i < need.length; i++) {
            if (need[i] > 0 && need[i] > free[i]) {
                return false;
            }
        }
        return true;
    }

    static long[] minus(long[] free, long[] need) {
        long[] left = free.clone();
        for (int i = 0; i < left.length; i++) {
            left[i] -= need[i];
        }
        return left;
    }
}
